/**
 * The serverless deployment the approval-link tests run (`fixtures/link-handler.mjs`: the built package's MCP handler
 * with `sessions: false` and `approvalLinks`, the inspector beside it): instances over one journal file, two of them
 * behind a loopback round-robin balancer, each told the public origin (the balancer's, known only once every
 * instance listens) before it serves. And the person's side of a link: opened in Chromium, every call approved.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { launchChromium } from "../../support/chromium.js";
import { listeningUrl } from "./listening-url.js";
import { type RoundRobinProxy, startRoundRobinProxy } from "./round-robin-proxy.js";

const INSTANCE = fileURLToPath(new URL("../fixtures/link-handler.mjs", import.meta.url));

/** What every instance is started with. */
export interface LinkHandlersOptions {
  /** The journal file every instance opens. */
  database: string;
  /** The file the instances' tools append a line to for each effect. */
  ledger: string;
  /** The approval links' secret (at least 32 bytes). */
  secret: string;
  /** How long an instance waits for a decision before a retry answers that it still waits, in ms. */
  waitMs: number;
  /** One more instance per entry, beside the balancer (reached at its own URL), whose links live this many ms. */
  shortLivedTtlsMs?: number[];
}

/** The running deployment. */
export interface LinkHandlers {
  /** The balancer: its `url` is the MCP endpoint clients connect to. */
  balancer: RoundRobinProxy;
  /** The public origin (the balancer's) every instance puts in its links. */
  origin: string;
  /** The instances of `shortLivedTtlsMs`, in that order. */
  shortLived: Array<{ child: ChildProcess; url: string }>;
  /** Stops every instance (SIGTERM, then its exit) and the balancer. */
  stop(): Promise<void>;
}

function stopInstance(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** Sends `origin` to an instance (its first stdin line) and waits until it says it is ready. */
function announce(child: ChildProcess, origin: string): Promise<void> {
  return new Promise((resolve) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("ready")) resolve();
    });
    child.stdin?.write(`${origin}\n`);
  });
}

/** Starts two balanced instances (and the short-lived ones), the balancer, and tells each the public origin. */
export async function startLinkHandlers(options: LinkHandlersOptions): Promise<LinkHandlers> {
  const { database, ledger, secret, waitMs, shortLivedTtlsMs = [] } = options;
  const children: ChildProcess[] = [];
  const start = (ttlMs?: number) => {
    const child = spawn(
      process.execPath,
      [INSTANCE, database, ledger, secret, String(waitMs), ...(ttlMs === undefined ? [] : [String(ttlMs)])],
      { stdio: ["pipe", "pipe", "pipe"] },
    );
    children.push(child);
    return listeningUrl(child, "the instance");
  };
  let balancer: RoundRobinProxy | undefined;
  try {
    const started = await Promise.all([start(), start(), ...shortLivedTtlsMs.map((ttlMs) => start(ttlMs))]);
    const front = await startRoundRobinProxy(started.slice(0, 2).map(({ url }) => url));
    balancer = front;
    const origin = new URL(front.url).origin;
    await Promise.all(children.map((child) => announce(child, origin)));
    return {
      balancer: front,
      origin,
      shortLived: started.slice(2),
      async stop() {
        await Promise.all(children.map(stopInstance));
        await front.close();
      },
    };
  } catch (error) {
    // A deployment that did not start is not handed to the test: what did start ends here.
    await Promise.all(children.map(stopInstance));
    await balancer?.close();
    throw error;
  }
}

/** Where and as whom {@link approveLinkInBrowser} opens a link. */
export interface LinkInBrowser {
  /** The system's Chromium (`chromiumPath()`). */
  executablePath: string | undefined;
  /** The approval link. */
  link: string;
  /** The signed-in user (the `user` cookie of `origin`). */
  user: string;
  /** The deployment's public origin. */
  origin: string;
  /** A path to save a full-page screenshot of the link's page at, before deciding. */
  screenshot?: string | undefined;
}

/** Opens the link in Chromium signed in as `user`, approves every call, and answers the page's final text. */
export async function approveLinkInBrowser({
  executablePath,
  link,
  user,
  origin,
  screenshot,
}: LinkInBrowser): Promise<string> {
  const browser = await launchChromium(executablePath);
  try {
    const context = await browser.newContext({ viewport: { width: 900, height: 640 } });
    await context.addCookies([{ name: "user", value: user, url: origin }]);
    const page = await context.newPage();
    await page.goto(link);
    await page.getByRole("heading", { name: "A program waits for your approval" }).waitFor();
    for (const radio of await page.getByRole("radio", { name: "Approve", exact: true }).all()) await radio.check();
    if (screenshot !== undefined) await page.screenshot({ path: screenshot, fullPage: true });
    await page.getByRole("button", { name: "Decide" }).click();
    await page.getByRole("heading", { name: "Decided" }).waitFor();
    return (await page.locator("body").textContent()) ?? "";
  } finally {
    await browser.close();
  }
}
