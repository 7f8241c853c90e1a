/**
 * The approval card rendered in Chromium as an MCP Apps host renders it: a host page (test/mcp/fixtures/apps-host.ts,
 * bundled here) whose MCP client of the codemode handler declares MCP Apps, reads the UI resource `codemode` names,
 * and puts the card in an iframe sandboxed to `allow-scripts` behind the SDK's `AppBridge`. The card shows the paused
 * call with every argument (a 5,000-character value folded, whole one click away) with no serious axe-core
 * violation, the person approves with the keyboard alone, and the
 * card's decision goes through the bridge's `tools/call` to the server: one effect. The same card handed the same
 * result again decides nothing. Screenshots (light before and after the decision, and dark) are saved under docs/.
 */
import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchRequestListener } from "../../src/cli/fetch-over-node-http.js";
import { createCodemodeMcpHandler } from "../../src/mcp/create-codemode-mcp-handler.js";
import { chromiumPath, launchChromium } from "../support/chromium.js";
import { byUser, mailRuntime } from "./support/handler-over-http.js";

const HOST_SCRIPT = fileURLToPath(new URL("./fixtures/apps-host.ts", import.meta.url));
// The figures: docs/ with SAVE_README_FIGURES=1 (then viewed and committed), else a folder removed after the run.
const SAVE_FIGURES = process.env["SAVE_README_FIGURES"] === "1";
const DOCS = SAVE_FIGURES
  ? fileURLToPath(new URL("../../docs/", import.meta.url))
  : `${join(tmpdir(), `codemode-card-figures-${process.pid}-${Date.now()}`)}/`;
const SECRET = "a-secret-of-at-least-32-characters!!";
const AXE = readFileSync(fileURLToPath(new URL("../../node_modules/axe-core/axe.min.js", import.meta.url)), "utf8");
const LONG = `Dear Ada, ${"the quarterly numbers are attached and summarised below. ".repeat(90)}Best, Grace`;
const SEND = `async () => mail.send({ to: "ada@example.com", subject: "Q3 report", body: ${JSON.stringify(LONG)} })`;

const executablePath = chromiumPath();

describe.skipIf(executablePath === undefined)("the approval card in an MCP Apps host", () => {
  let browser: Browser;
  let hostScript: string;

  beforeAll(async () => {
    const bundled = await build({
      entryPoints: [HOST_SCRIPT],
      bundle: true,
      write: false,
      format: "iife",
      platform: "browser",
      target: "es2022",
      logLevel: "silent",
    });
    hostScript = bundled.outputFiles[0]?.text ?? "";
    browser = await launchChromium(executablePath);
    mkdirSync(DOCS, { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    if (!SAVE_FIGURES) rmSync(DOCS, { recursive: true, force: true });
  });

  it("approves a paused program through the host bridge: one effect; the same card again changes nothing", async () => {
    const { runtime, sent } = mailRuntime();
    const handler = createCodemodeMcpHandler({
      runtime,
      authorize: byUser,
      approvalLinks: { url: "https://app.example/admin/codemode", secret: SECRET },
    });
    const mcp = fetchRequestListener(handler);
    const server = createServer((request, response) => {
      if (request.url === "/") {
        response.writeHead(200, { "content-type": "text/html; charset=utf-8" });
        response.end(
          '<!doctype html><title>host</title><body style="margin:0;padding:12px;background:#e9ecef"><div id="host"></div><script src="/host.js"></script></body>',
        );
      } else if (request.url === "/host.js") {
        response.writeHead(200, { "content-type": "text/javascript" });
        response.end(hostScript);
      } else void mcp(request, response);
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const page = await browser.newPage({ viewport: { width: 760, height: 900 } });
    const problems: string[] = [];
    page.on("pageerror", (error) => problems.push(error.message));
    try {
      await page.goto(`${origin}/`);
      const rendered = await page.evaluate((code) => window.runInHost(code, "ada", "light"), SEND);
      // The SDK v2 client as a host would make it: it negotiates the 2025-11-25 revision (a session).
      expect(rendered).toEqual({ uri: "ui://ai-codemode/approval", status: "paused", version: "2025-11-25" });

      const card = page.frameLocator("iframe[title='Approval card']");
      await expect
        .poll(() => card.locator("h1").textContent(), { timeout: 30_000 })
        .toBe("A program waits for your approval");
      expect(await card.locator("legend").textContent()).toMatch(/^#\d+ mail\.send$/);
      // Every argument: the short ones whole, the long one folded with its length, and whole when unfolded.
      expect(await card.locator("dt").allTextContents()).toEqual(["to", "subject", "body"]);
      const fold = card.locator("details.fold");
      expect(await fold.locator("summary").textContent()).toContain(`(${LONG.length} characters, show all)`);
      expect(await fold.locator("pre").textContent()).toBe(JSON.stringify(LONG));
      expect(await card.locator("details.program pre").textContent()).toBe(SEND);
      await expect.poll(async () => (await page.locator("iframe").boundingBox())?.height ?? 0).toBeGreaterThan(300);
      await page.screenshot({ path: `${DOCS}mcp-approval-card.png` });

      // No serious accessibility violation (axe-core in the card's frame).
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      await frame!.evaluate(AXE);
      const violations = await frame!.evaluate(async () => {
        const found = await (
          window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string }> }> } }
        ).axe.run();
        return found.violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => v.id);
      });
      expect(violations).toEqual([]);

      // Keyboard only: Tab into the card (the folded value first), Tab to Approve, Space, Tab past the reason to
      // Decide, Enter.
      const focused = () => frame!.evaluate(() => document.activeElement?.outerHTML.slice(0, 60) ?? "");
      await page.keyboard.press("Tab");
      expect(await focused()).toMatch(/^<summary/);
      await page.keyboard.press("Tab");
      expect(await focused()).toMatch(/^<input type="radio" name="choice-\d+" value="approve"/);
      await page.keyboard.press("Space");
      await page.keyboard.press("Tab");
      await page.keyboard.press("Tab");
      expect(await focused()).toMatch(/^<button/);
      await page.keyboard.press("Enter");
      await expect.poll(() => card.locator("h1").textContent(), { timeout: 30_000 }).toBe("Decided");
      expect(await card.locator(".notice").textContent()).toBe(
        "1 of 1 call(s) approved. The program continued and completed.",
      );
      expect(sent).toEqual([{ to: "ada@example.com", subject: "Q3 report", body: LONG }]);
      await page.locator("iframe").screenshot({ path: `${DOCS}mcp-approval-card-decided.png` });
      expect(await page.evaluate(() => window.calledByCard)).toEqual(["codemode_approval_card"]);

      // The host hands the card the same result again: the card shows the call, but its token decided already.
      await page.evaluate(() => window.resendResult());
      await expect
        .poll(() => card.locator("h1").textContent(), { timeout: 30_000 })
        .toBe("A program waits for your approval");
      await card.getByLabel("Approve", { exact: true }).check();
      await card.getByRole("button", { name: "Decide" }).click();
      await expect.poll(() => card.locator("h1").textContent(), { timeout: 30_000 }).toBe("Nothing was changed");
      expect(await card.locator(".notice").textContent()).toContain("A card decides once.");
      expect(sent).toHaveLength(1);
      expect(problems).toEqual([]);

      // The dark theme, from the host's context.
      await page.evaluate(() => window.runInHost("async () => mail.send({ to: 'grace@example.com' })", "ada", "dark"));
      const second = page.frameLocator("iframe[title='Approval card']").nth(1);
      await expect
        .poll(() => second.locator("h1").textContent(), { timeout: 30_000 })
        .toBe("A program waits for your approval");
      await page
        .locator("iframe")
        .nth(1)
        .screenshot({ path: `${DOCS}mcp-approval-card-dark.png` });
      expect(readFileSync(`${DOCS}mcp-approval-card-dark.png`).length).toBeGreaterThan(1000);
      expect(sent).toHaveLength(1);
    } finally {
      await page.close();
      await handler.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
    }
  }, 180_000);
});
