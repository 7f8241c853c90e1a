// Shared by the chat e2e tests: `next start` on 127.0.0.1 with a fresh database, and Debian's
// Chromium through playwright-core.
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import path from "node:path";
import { chromium } from "playwright-core";

export const appDir = path.join(import.meta.dirname, "..", "..");
export const STEP_TIMEOUT_MS = 30_000;
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
];

function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  return execFileSync("which", ["chromium"], { encoding: "utf8" }).trim();
}

/** Starts the built app on `port` with its database at `databaseUrl` (and `env`); resolves once it answers. */
export async function startServer({ port, databaseUrl, env: extra = {} }) {
  const { OPENAI_API_KEY: _ignored, ...env } = process.env;
  const next = path.join(appDir, "node_modules/next/dist/bin/next");
  const child = spawn(process.execPath, [next, "start", "-p", String(port), "-H", "127.0.0.1"], {
    cwd: appDir,
    env: { ...env, ...extra, CODEMODE_DATABASE_URL: databaseUrl, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + STEP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`next start exited with ${child.exitCode}:\n${output}`);
    try {
      // The page redirects a visitor without a session to /session (which sets the cookie): up is any answer.
      if ((await fetch(baseUrl, { redirect: "manual" })).status < 500) return { child, baseUrl, output: () => output };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  child.kill("SIGKILL");
  throw new Error(`next start did not answer within ${STEP_TIMEOUT_MS} ms:\n${output}`);
}

/** Stops a server started by `startServer`. */
export async function stopServer(running) {
  if (running === undefined || running.child.exitCode !== null) return;
  const exited = new Promise((resolve) => running.child.once("exit", resolve));
  running.child.kill("SIGTERM");
  await exited;
}

/** Launches headless Chromium. */
export function launchBrowser() {
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_FLAGS });
}

/**
 * Opens the chat page in a new browser context: a new anonymous user (its own session cookie) and a new chat.
 * `context` opens it in an existing one instead (the same user).
 */
export async function openChat(browser, baseUrl, { context, path = "/" } = {}) {
  const page = await (context ?? browser).newPage({ viewport: { width: 900, height: 900 } });
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
  await page.goto(new URL(path, baseUrl).href);
  await page.getByTestId("user-id").waitFor();
  return page;
}

/** Sends a prompt. */
export async function ask(page, text) {
  await page.getByTestId("prompt").fill(text);
  await page.getByTestId("prompt").press("Enter");
}

/** The execution id on the open approval card. */
export async function pendingExecutionId(page) {
  const footer = await page
    .getByTestId("approval")
    .getByText(/^execution /)
    .textContent();
  const match = /^execution (\S+) ·/.exec(footer ?? "");
  assert.ok(match, `no execution id in ${footer}`);
  return match[1];
}
