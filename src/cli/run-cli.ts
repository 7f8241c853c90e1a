/**
 * The `ai-codemode` CLI: parses the command line (`util.parseArgs`), opens the runtime
 * (the store, or the app's `--runtime` module) and runs one command. Returns the exit
 * code: 0 done, 1 the operation failed (not found, an action's error), 2 a usage error.
 */
import { parseArgs } from "node:util";
import type { HousekeepingRuntime, InspectorRuntime } from "../inspector/inspector-runtime.js";
import { CliError } from "../errors/cli-error.js";
import { quoted } from "../shared/bounded-text.js";
import { closestName } from "../shared/closest-name.js";
import { messageOf } from "../shared/message-of.js";
import { runCommand, type CommandContext } from "./cli-commands.js";
import type { CliIo } from "./cli-io.js";
import { ACTION_COMMANDS, COMMAND_OPTIONS, USAGE } from "./cli-usage.js";
import { loadRuntimeModule } from "./load-runtime-module.js";
import { openStoreRuntime } from "./open-store-runtime.js";

const OPTIONS = {
  store: { type: "string" },
  name: { type: "string" },
  runtime: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
  status: { type: "string" },
  since: { type: "string" },
  limit: { type: "string" },
  keep: { type: "string" },
  "older-than": { type: "string" },
  seq: { type: "string" },
  reason: { type: "string" },
  web: { type: "boolean" },
  port: { type: "string" },
  http: { type: "string" },
  proxy: { type: "string" },
  "allow-origin": { type: "string" },
  modules: { type: "string" },
} as const;

const COMMON = ["store", "name", "runtime", "json", "help"];

/** A usage error naming the first option the CLI does not know and the closest one it does (Node's text names neither). */
function unknownOption(argv: string[]): CliError | undefined {
  const { tokens } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: false, tokens: true });
  for (const token of tokens) {
    if (token.kind !== "option" || Object.hasOwn(OPTIONS, token.name)) continue;
    const suggestion = closestName(token.name, Object.keys(OPTIONS));
    const hint = suggestion === undefined ? "" : ` (did you mean --${suggestion}?)`;
    return new CliError({ usage: true, message: `Unknown option ${quoted(token.rawName)}${hint}.` });
  }
  return undefined;
}

function parse(argv: string[]): {
  command: string | undefined;
  positionals: string[];
  values: Record<string, string | boolean | undefined>;
} {
  let parsed: ReturnType<
    typeof parseArgs<{ args: string[]; options: typeof OPTIONS; allowPositionals: true; strict: true }>
  >;
  const unknown = unknownOption(argv);
  if (unknown !== undefined) throw unknown;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    throw new CliError({ message: messageOf(error), usage: true, cause: error });
  }
  const [command, ...positionals] = parsed.positionals;
  const values = parsed.values as Record<string, string | boolean | undefined>;
  if (command !== undefined) {
    const allowed = Object.hasOwn(COMMAND_OPTIONS, command) ? COMMAND_OPTIONS[command] : undefined;
    if (allowed === undefined) {
      const suggestion = closestName(command, Object.keys(COMMAND_OPTIONS));
      const hint = suggestion === undefined ? "" : ` (did you mean \`${suggestion}\`?)`;
      throw new CliError({ usage: true, message: `Unknown command ${quoted(command)}${hint}.` });
    }
    for (const key of Object.keys(values)) {
      if (!COMMON.includes(key) && !allowed.includes(key))
        throw new CliError({ usage: true, message: `${command} does not take --${key}.` });
    }
  }
  return { command, positionals, values };
}

async function openRuntime(
  values: Record<string, string | boolean | undefined>,
  command: string,
  io: CliIo,
): Promise<{
  runtime: InspectorRuntime & Partial<HousekeepingRuntime>;
  fromModule: boolean;
  store?: string;
  close: () => Promise<void>;
}> {
  const module = values["runtime"];
  const proxy = values["proxy"];
  if (typeof module === "string" && typeof proxy === "string")
    throw new CliError({
      usage: true,
      message: "--runtime (the app's runtime) and --proxy (a proxy over MCP servers) name two runtimes: give one.",
    });
  if (typeof proxy === "string") return openProxy(proxy, values, command, io);
  if (typeof module === "string") {
    if (values["store"] !== undefined || values["name"] !== undefined) {
      throw new CliError({
        usage: true,
        message:
          "--store and --name choose the store the CLI opens; with --runtime the app's runtime decides both. Give one or the other.",
      });
    }
    const loaded = await loadRuntimeModule(module, io.cwd);
    if (!loaded.ok) throw new CliError({ message: loaded.error });
    const runtime = loaded.runtime as InspectorRuntime & Partial<HousekeepingRuntime> & { close?: () => Promise<void> };
    return { runtime, fromModule: true, close: async () => runtime.close?.() };
  }
  if (ACTION_COMMANDS.includes(command)) {
    throw new CliError({
      usage: true,
      message:
        `${command} runs the app's connectors (resuming a pass, reverts, lifecycle hooks), so it needs the app's runtime: ` +
        `--runtime <module> exporting createCodemodeRuntime(...) (e.g. --runtime ./lib/codemode.ts#getCodemodeRuntime), ` +
        "or --proxy <servers.json> for the executions of ai-codemode mcp --proxy.",
    });
  }
  const opened = openStoreRuntime({
    store: values["store"] as string | undefined,
    name: values["name"] as string | undefined,
    env: io.env,
    cwd: io.cwd,
    now: io.now,
  });
  if (!opened.ok) throw new CliError({ message: opened.error });
  return { runtime: opened.runtime, fromModule: false, store: opened.label, close: () => opened.runtime.close() };
}

/**
 * `--proxy servers.json`: the proxy's journal. Only the commands that run connectors start the upstream
 * servers (and stop them when done); the others read the store the proxy writes.
 */
async function openProxy(
  proxy: string,
  values: Record<string, string | boolean | undefined>,
  command: string,
  io: CliIo,
): Promise<Awaited<ReturnType<typeof openRuntime>>> {
  const { closeOnSignals, openProxyRuntime, readProxyFile } = await import("./open-proxy-runtime.js");
  const read = await readProxyFile(proxy, values, io);
  if (ACTION_COMMANDS.includes(command) || command === "inspect") {
    const opened = await openProxyRuntime(read, io);
    // From here the command may start children: a signal stops them before the process ends.
    const release = closeOnSignals(opened.close);
    const close = async () => {
      release();
      await opened.close();
    };
    try {
      return { runtime: await opened.runtime(), fromModule: true, close };
    } catch (error) {
      await close();
      throw error;
    }
  }
  const opened = openStoreRuntime({ store: read.store, name: read.name, env: io.env, cwd: io.cwd, now: io.now });
  if (!opened.ok) throw new CliError({ message: opened.error });
  return { runtime: opened.runtime, fromModule: false, store: opened.label, close: () => opened.runtime.close() };
}

/** `ai-codemode mcp` opens its own runtime (the app's module, or a proxy) and serves until stopped. */
async function runMcp(values: Record<string, string | boolean | undefined>, io: CliIo): Promise<number> {
  try {
    const { runMcpCommand } = await import("./mcp-command.js");
    return await runMcpCommand({ values, io });
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return CliError.isInstance(error) && error.usage ? 2 : 1;
  }
}

/** Runs `ai-codemode` with `argv` (without `node` and the script). Resolves with the exit code. */
export async function runCli(argv: string[], overrides: Partial<CliIo> = {}): Promise<number> {
  const io: CliIo = {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    now: Date.now,
    ...overrides,
  };
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    io.stderr(`${messageOf(error)}\nRun ai-codemode --help for the commands and options.\n`);
    return 2;
  }
  const { command, positionals, values } = parsed;
  if (command === undefined || values["help"] === true) {
    (command === undefined && values["help"] !== true ? io.stderr : io.stdout)(USAGE);
    return command === undefined && values["help"] !== true ? 2 : 0;
  }
  if (command === "mcp") return runMcp(values, io);
  let opened: Awaited<ReturnType<typeof openRuntime>>;
  try {
    opened = await openRuntime(values, command, io);
  } catch (error) {
    io.stderr(`${messageOf(error)}\n`);
    return CliError.isInstance(error) && error.usage ? 2 : 1;
  }
  try {
    const context: CommandContext = { ...opened, io, values, positionals, json: values["json"] === true };
    return await runCommand(command, context);
  } catch (error) {
    const usage = CliError.isInstance(error) && error.usage;
    io.stderr(`${messageOf(error)}\n`);
    return usage ? 2 : 1;
  } finally {
    await opened.close();
  }
}
