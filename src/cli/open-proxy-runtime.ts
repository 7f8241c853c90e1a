/**
 * `--proxy <servers.json>`: the code-mode proxy a config file describes, for `ai-codemode mcp` and
 * for the commands a person decides with (`pending`, `approve`, `reject`, …). The store and name
 * come from `--store`/`--name`, else the file, else the usual resolution, so every command opens
 * the journal `mcp --proxy` writes. Closing it stops the upstream children, so the command exits.
 */
import { readFileSync } from "node:fs";
import { constants } from "node:os";
import { dirname, resolve } from "node:path";
import type { CodemodeRuntime } from "../ai/create-codemode-runtime.js";
import { CliError } from "../errors/cli-error.js";
import type { ProxyConfigFile } from "../mcp/proxy/proxy-config.js";
import { messageOf } from "../shared/message-of.js";
import type { CliIo } from "./cli-io.js";
import { readModuleFiles, readModulesFlag } from "./module-files.js";
import { resolveCliStore } from "./open-store-runtime.js";
import type { ModulesOption } from "../runtime/runtime-modules.js";

/** The config file, read and validated, with the store and name the command line chose. */
export interface ProxyFile {
  /** The file's absolute path. */
  file: string;
  config: ProxyConfigFile;
  store: string | undefined;
  name: string | undefined;
  /** The config's modules, then the `--modules` file's (which win on a shared name). */
  modules: ModulesOption;
}

/** Reads `--proxy` (relative to the working directory); a missing or invalid file is a `CliError` naming it. */
export async function readProxyFile(
  proxy: string,
  values: Record<string, string | boolean | undefined>,
  io: CliIo,
): Promise<ProxyFile> {
  const file = resolve(io.cwd, proxy);
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new CliError({ message: `--proxy ${proxy}: cannot read ${file} (${messageOf(error)}).`, cause: error });
  }
  const { parseProxyConfig } = await import("../mcp/proxy/proxy-config.js");
  const config = parseProxyConfig(text, io.env, proxy);
  return {
    file,
    config,
    store: (values["store"] as string | undefined) ?? config.store,
    name: (values["name"] as string | undefined) ?? config.name,
    modules: {
      ...(config.modules === undefined ? {} : readModuleFiles(config.modules, dirname(file), `--proxy ${proxy}`)),
      ...(typeof values["modules"] === "string" ? readModulesFlag(values["modules"], io.cwd) : {}),
    },
  };
}

/**
 * Starts nothing yet: the upstream servers start at the first `runtime()` (which waits for them) or
 * `currentRuntime()` (which does not), and stop at `close()`.
 */
export async function openProxyRuntime(
  read: ProxyFile,
  io: CliIo,
): Promise<{
  runtime: () => Promise<CodemodeRuntime>;
  currentRuntime: () => Promise<CodemodeRuntime>;
  close: () => Promise<void>;
}> {
  const { createCodemodeMcpProxy } = await import("../mcp/proxy/create-codemode-mcp-proxy.js");
  const proxy = createCodemodeMcpProxy({
    servers: read.config.mcpServers,
    ...(read.config.startTimeoutMs === undefined ? {} : { startTimeoutMs: read.config.startTimeoutMs }),
    runtime: {
      store: resolveCliStore(read.store, io.env),
      ...(read.name === undefined ? {} : { name: read.name }),
      ...(Object.keys(read.modules).length === 0 ? {} : { modules: read.modules }),
    },
  });
  return { runtime: proxy.runtime, currentRuntime: proxy.currentRuntime, close: proxy.close };
}

/** The signals that end a command: each stops the proxy's children before the process exits. */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/**
 * Until the returned function is called, SIGINT, SIGTERM and SIGHUP stop the proxy's children (a start
 * under way included) and then end the process with the signal's usual code: a child must not outlive it.
 */
export function closeOnSignals(close: () => Promise<void>): () => void {
  const onSignal = (signal: NodeJS.Signals): void => {
    release();
    void close()
      .catch(() => undefined)
      .finally(() => process.exit(128 + (constants.signals[signal] ?? 0)));
  };
  const release = (): void => {
    for (const signal of ENDING_SIGNALS) process.off(signal, onSignal);
  };
  for (const signal of ENDING_SIGNALS) process.on(signal, onSignal);
  return release;
}

/** What the model is told about deciding a paused execution of this proxy when no form could ask. */
export function proxyApprovalHint(read: ProxyFile, values: Record<string, string | boolean | undefined>): string {
  const extra = ["store", "name"]
    .filter((key) => typeof values[key] === "string")
    .map((key) => ` --${key} ${JSON.stringify(values[key])}`)
    .join("");
  const proxy = `--proxy ${JSON.stringify(read.file)}${extra}`;
  return (
    `A person decides it outside this chat: \`npx ai-codemode approve {id} ${proxy}\` (or \`reject\`; ` +
    `\`npx ai-codemode pending ${proxy}\` shows every paused call). The model cannot approve it.`
  );
}
