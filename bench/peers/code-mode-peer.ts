/**
 * The AI SDK's own code mode (`@ai-sdk/code-mode`), the peer the benches measure beside ai-codemode. It pins its
 * peer `ai` to 7.0.85 exactly, which the root lock (ai 7.0.173) cannot hold, so it lives in bench/peers with its
 * own lock (`npm run bench:peers`). Benches call {@link loadCodeModePeer} and print {@link PEER_MISSING} when it is
 * not installed instead of failing.
 */
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const PEERS_FOLDER = dirname(fileURLToPath(import.meta.url));
const PEER_PACKAGE = "@ai-sdk/code-mode";

/** Said instead of a figure when the peer is not installed. */
export const PEER_MISSING = `${PEER_PACKAGE} is not installed: run \`npm run bench:peers\``;

/** A tool as the peer takes it: an AI SDK `tool()` (any `ai` version's shape). */
type PeerTool = { execute?: (...args: never[]) => unknown; inputSchema?: unknown };

/** What the benches use of the peer. */
export interface CodeModePeer {
  version: string;
  /** Runs a program body (statements; `tools.name(input)` calls a tool) and resolves with its return value. */
  run(js: string, tools: Record<string, PeerTool>): Promise<unknown>;
  /** `file:` URLs of the peer and of the `ai` it runs with, for scripts run in a child process. */
  urls: { codeMode: string; ai: string };
}

/** The `file:` URL of a package's entry as resolved from bench/peers (both it and `ai` export `default`). */
function peerUrl(specifier: string): string {
  const require = createRequire(join(PEERS_FOLDER, "package.json"));
  return pathToFileURL(require.resolve(specifier)).href;
}

/** Whether `npm run bench:peers` has installed the peer. */
function isPeerInstalled(): boolean {
  return existsSync(join(PEERS_FOLDER, "node_modules", PEER_PACKAGE, "package.json"));
}

/** Loads the peer, or `undefined` when it is not installed. */
export async function loadCodeModePeer(): Promise<CodeModePeer | undefined> {
  if (!isPeerInstalled()) return undefined;
  const urls = { codeMode: peerUrl(PEER_PACKAGE), ai: peerUrl("ai") };
  const peer = (await import(urls.codeMode)) as {
    experimental_runCodeMode: (input: { js: string; tools: Record<string, PeerTool> }) => Promise<unknown>;
  };
  const manifest = join(PEERS_FOLDER, "node_modules", PEER_PACKAGE, "package.json");
  const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
  return { version, urls, run: (js, tools) => peer.experimental_runCodeMode({ js, tools }) };
}
