// Shared by the chat card e2e tests: the codemode card of a chat page, its screenshots in light and dark, and an
// axe-core check of it in the browser.
import assert from "node:assert/strict";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { appDir } from "./app-server.mjs";

/** axe-core from the repository's own dependencies (the example does not install it). */
const AXE_SCRIPT = path.join(appDir, "..", "..", "node_modules", "axe-core", "axe.min.js");

/** Where `SAVE_README_FIGURES=1` copies the card's screenshots. */
const FIGURES_DIR = path.join(appDir, "..", "..", "docs", "chat-card");

/** The codemode card (one tool part) of the page: the last one, the one the latest prompt started. */
export function card(page) {
  return page.getByTestId("codemode-call").last();
}

/** Shows the page in `scheme`: the media query and the `.dark` class shadcn themes read. */
export async function setColorScheme(page, scheme) {
  await page.emulateMedia({ colorScheme: scheme });
  await page.evaluate((dark) => {
    document.documentElement.classList.toggle("dark", dark);
    document.documentElement.style.colorScheme = dark ? "dark" : "light";
  }, scheme === "dark");
  // The colour transitions the theme change started have ended (axe and screenshots read the final colours), and
  // two frames later they are painted.
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const transitions = document.getAnimations().filter((animation) => animation instanceof CSSTransition);
    // Bounded: a transition that never ends must not hang the test (theirs last a fraction of a second).
    await Promise.race([
      Promise.all(transitions.map((transition) => transition.finished.catch(() => undefined))),
      new Promise((resolve) => setTimeout(resolve, 2_000)),
    ]);
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  });
}

/**
 * Screenshots `locator` in light and dark and writes them side by side as `<name>.png` in `dir` (and, with
 * SAVE_README_FIGURES=1 and unless `figure` is false, under docs/chat-card/). The page is left in light. Returns the
 * file written.
 */
export async function screenshotLightAndDark(page, locator, { dir, name, figure = true }) {
  const shots = [];
  for (const scheme of ["light", "dark"]) {
    await setColorScheme(page, scheme);
    shots.push(await locator.screenshot({ animations: "disabled" }));
  }
  await setColorScheme(page, "light");
  // Composed in a page of its own context: the card's page keeps its focus.
  const pair = await page.context().browser().newPage();
  try {
    const images = shots.map((png) => `<img alt="" src="data:image/png;base64,${png.toString("base64")}">`).join("");
    await pair.setContent(
      `<body style="margin:0"><div id="pair" style="display:inline-flex;gap:8px;padding:8px;background:#9ca3af">${images}</div></body>`,
    );
    await pair.waitForFunction(() => [...document.images].every((image) => image.complete && image.naturalWidth > 0));
    const file = path.join(dir, `${name}.png`);
    writeFileSync(file, await pair.locator("#pair").screenshot());
    if (figure && process.env.SAVE_README_FIGURES === "1") {
      mkdirSync(FIGURES_DIR, { recursive: true });
      copyFileSync(file, path.join(FIGURES_DIR, `${name}.png`));
    }
    return file;
  } finally {
    await pair.context().close();
  }
}

/** Every axe-core result of the checks below, by state and scheme (the test file prints them). */
export const axeReport = [];

/**
 * Runs axe-core on `locator` in light and dark; fails on any serious or critical violation. Records the counts
 * (violations of every impact, passes) in `axeReport` under `state`.
 */
export async function expectAccessible(page, locator, state) {
  if (!(await page.evaluate(() => "axe" in window))) await page.addScriptTag({ path: AXE_SCRIPT });
  const handle = await locator.elementHandle();
  assert.ok(handle, `the card is on the page (${state})`);
  try {
    for (const scheme of ["light", "dark"]) {
      await setColorScheme(page, scheme);
      const { violations, passes } = await page.evaluate(
        (element) =>
          window.axe.run(element, { resultTypes: ["violations"] }).then((results) => ({
            passes: results.passes.length,
            violations: results.violations.map((violation) => ({
              id: violation.id,
              impact: violation.impact,
              help: violation.help,
              targets: violation.nodes.map((node) => node.target.join(" ")),
            })),
          })),
        handle,
      );
      axeReport.push({
        state,
        scheme,
        passes,
        violations: violations.map((violation) => `${violation.id} (${violation.impact})`),
      });
      const serious = violations.filter((violation) => ["serious", "critical"].includes(violation.impact));
      assert.deepEqual(serious, [], `no serious or critical axe-core violation on the card (${state}, ${scheme})`);
    }
  } finally {
    await setColorScheme(page, "light");
    await handle.dispose();
  }
}
