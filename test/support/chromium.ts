/**
 * Chromium for the tests that drive a page (`playwright-core` on the system's browser): where it is, and a headless
 * launch with the flags every such test uses. CI installs it, so only a developer's machine may skip those tests.
 */
import { execFileSync } from "node:child_process";
import { type Browser, chromium } from "playwright-core";

/**
 * The system's Chromium: `CHROMIUM_PATH`, else `which chromium`; `undefined` when there is none (a test then skips),
 * except in CI, which must have it (`apt-get install -y chromium`): there it throws.
 */
export function chromiumPath(): string | undefined {
  try {
    return process.env["CHROMIUM_PATH"] ?? execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
  } catch {
    if (process.env["CI"]) throw new Error("Chromium is required in CI (apt-get install -y chromium)");
    return undefined;
  }
}

/** Launches Chromium at `executablePath` headless, without the sandbox and the GPU a container lacks. */
export function launchChromium(executablePath: string | undefined): Promise<Browser> {
  return chromium.launch({
    ...(executablePath === undefined ? {} : { executablePath }),
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu"],
  });
}
