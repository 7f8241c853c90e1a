/**
 * The upstream MCP servers a code-mode proxy fronts, in the shape desktop hosts already use
 * (`{ "mcpServers": { "memory": { "command": "npx", "args": [...], "env": {...} },
 * "linear": { "url": "https://…", "headers": {...} } } }`), validated with errors that name the
 * path. `${VAR}` in `env`, `headers`, `url` and `args` is taken from the proxy's environment, so
 * credentials stay in the proxy's environment and out of the config file; `passEnv` hands named
 * variables to a child as they are. `needsApproval` and `readOnly` set the calls' policy over
 * whatever the server's annotations claim.
 */
import { messageOf } from "../../shared/message-of.js";
import { InvalidOptionError } from "../../errors.js";
import { isRecord } from "../../shared/is-record.js";
import { assertKnownKeys, keysOf } from "../../shared/known-keys.js";
import { expand, expandedValues, recordExpandedValues } from "./expand-variables.js";

/** An upstream server started as a child process speaking MCP over stdio. */
export interface StdioUpstreamConfig {
  command: string;
  args?: string[];
  /** Added to the few variables the child inherits (PATH, HOME, …): each server sees only its own secrets. */
  env?: Record<string, string>;
  /** Names of the proxy's own environment variables the child gets as they are (e.g. `HTTPS_PROXY`); unset ones are skipped. */
  passEnv?: string[];
  cwd?: string;
  /** `true`: every tool needs approval (except those in `readOnly`); `false`: none does; a list: those tools do too (the others keep their annotations). Wins over annotations. */
  needsApproval?: boolean | string[];
  /** Tools that only read: they run without approval and are not journaled as effects. Wins over annotations. */
  readOnly?: string[];
}

/** An upstream server reached over Streamable HTTP (or the older SSE transport). */
export interface HttpUpstreamConfig {
  url: string;
  headers?: Record<string, string>;
  /** @default "http" */
  transport?: "http" | "sse";
  /** `true`: every tool needs approval (except those in `readOnly`); `false`: none does; a list: those tools do too (the others keep their annotations). Wins over annotations. */
  needsApproval?: boolean | string[];
  /** Tools that only read: they run without approval and are not journaled as effects. Wins over annotations. */
  readOnly?: string[];
}

/** The approval policy of one server's tools, over the server's own annotations. */
export type UpstreamPolicy = Pick<StdioUpstreamConfig, "needsApproval" | "readOnly">;

/** One upstream server. */
export type UpstreamConfig = StdioUpstreamConfig | HttpUpstreamConfig;

/** A proxy config file: the servers, and optionally the journal's store and runtime name. */
export interface ProxyConfigFile {
  mcpServers: Record<string, UpstreamConfig>;
  store?: string;
  name?: string;
  /** How long one server may take to start and list its tools, in ms (as `createCodemodeMcpProxy`'s option). */
  startTimeoutMs?: number;
  /** ES modules programs may import: specifier → a module file, or `{ source, types }` files (paths relative to the config file). */
  modules?: ModuleFiles;
}

/** Specifier → the path of an ES module file, or of its source and its TypeScript declaration. */
export type ModuleFiles = Record<string, string | { source: string; types?: string }>;

/** The `"type"` desktop hosts' files write beside a server (`"stdio"`, `"http"`, `"sse"`): accepted, read as the transport. */
interface HostServerType {
  type?: unknown;
}

/** Every key of a stdio server's entry. */
const STDIO_KEYS = keysOf<StdioUpstreamConfig & HostServerType>({
  command: true,
  args: true,
  env: true,
  passEnv: true,
  cwd: true,
  type: true,
  needsApproval: true,
  readOnly: true,
});
/** Every key of an HTTP server's entry. */
const HTTP_KEYS = keysOf<HttpUpstreamConfig & HostServerType>({
  url: true,
  headers: true,
  transport: true,
  type: true,
  needsApproval: true,
  readOnly: true,
});
/** Keys of earlier releases, refused with the key that replaced them. */
const RENAMED_KEYS: Record<string, string> = { requiresApproval: "needsApproval", requireApproval: "needsApproval" };
/** An environment variable's name, as `passEnv` lists it. */
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Every key of a config file. */
const FILE_KEYS = keysOf<ProxyConfigFile>({
  mcpServers: true,
  store: true,
  name: true,
  startTimeoutMs: true,
  modules: true,
});
const MODULE_FILE_KEYS = keysOf<{ source: string; types?: string }>({ source: true, types: true });

/** Validates a `modules` entry of file paths (the files are read by whoever loads the config). */
export function parseModuleFiles(value: unknown, path: string): ModuleFiles {
  if (!isRecord(value))
    throw new InvalidOptionError({
      path,
      message: 'must be an object { "specifier": "path.js" | { "source", "types" } }',
    });
  const out: ModuleFiles = plainRecord();
  for (const [specifier, entry] of Object.entries(value)) {
    const at = `${path}[${JSON.stringify(specifier)}]`;
    if (typeof entry === "string") {
      out[specifier] = entry;
      continue;
    }
    if (!isRecord(entry) || typeof entry.source !== "string")
      throw new InvalidOptionError({ path: at, message: 'must be a file path, or { "source": path, "types"?: path }' });
    assertKnownKeys(entry, MODULE_FILE_KEYS, at);
    if (entry.types !== undefined && typeof entry.types !== "string")
      throw new InvalidOptionError({ path: `${at}.types`, message: "must be a file path" });
    out[specifier] =
      entry.types === undefined ? { source: entry.source } : { source: entry.source, types: entry.types };
  }
  return out;
}

/** A namespace is a JavaScript global inside the sandbox: an identifier. */
const NAMESPACE = /^[A-Za-z_$][\w$]*$/;
/** Globals the sandbox has already; `__proto__` is no global at all (it names the global object's prototype). */
const RESERVED_NAMESPACES = new Set(["codemode", "fetch", "tools", "__proto__"]);

/** A record without a prototype: a key named `__proto__` (JSON makes it an own key) is kept as any other. */
function plainRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

function stringRecord(
  value: unknown,
  path: string,
  env: Record<string, string | undefined> | undefined,
  found: Set<string>,
): Record<string, string> {
  if (!isRecord(value)) throw new InvalidOptionError({ path, message: "must be an object of strings" });
  const out = plainRecord<string>();
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== "string") throw new InvalidOptionError({ path: `${path}.${key}`, message: "must be a string" });
    out[key] = expand(item, env, `${path}.${key}`, found);
  }
  return out;
}

function stringList(value: unknown, path: string, pattern?: RegExp): string[] {
  if (!Array.isArray(value) || !value.every((item) => typeof item === "string" && item !== ""))
    throw new InvalidOptionError({ path, message: "must be an array of non-empty strings" });
  const list = value as string[];
  const bad = pattern === undefined ? undefined : list.find((item) => !pattern.test(item));
  if (bad !== undefined)
    throw new InvalidOptionError({ path, message: `holds ${JSON.stringify(bad.slice(0, 100))}, not a variable name` });
  const twice = list.find((item, index) => list.indexOf(item) !== index);
  if (twice !== undefined) throw new InvalidOptionError({ path, message: `names ${JSON.stringify(twice)} twice` });
  return list;
}

/** `needsApproval` and `readOnly`, checked against each other. */
function policy(value: Record<string, unknown>, path: string): UpstreamPolicy {
  for (const [old, current] of Object.entries(RENAMED_KEYS))
    if (old in value) throw new InvalidOptionError({ path: `${path}.${old}`, message: `is now called "${current}"` });
  const { needsApproval, readOnly } = value;
  if (needsApproval !== undefined && typeof needsApproval !== "boolean" && !Array.isArray(needsApproval))
    throw new InvalidOptionError({
      path: `${path}.needsApproval`,
      message: "must be true, false or an array of tool names",
    });
  const approved = Array.isArray(needsApproval) ? stringList(needsApproval, `${path}.needsApproval`) : needsApproval;
  const reads = readOnly === undefined ? undefined : stringList(readOnly, `${path}.readOnly`);
  const both = Array.isArray(approved) ? approved.find((name) => reads?.includes(name)) : undefined;
  if (both !== undefined)
    throw new InvalidOptionError({
      path: `${path}.readOnly`,
      message: `names ${JSON.stringify(both)}, which needsApproval names too: a call that needs approval is an effect`,
    });
  return {
    ...(approved === undefined ? {} : { needsApproval: approved }),
    ...(reads === undefined ? {} : { readOnly: reads }),
  };
}

function upstream(value: unknown, path: string, env: Record<string, string | undefined> | undefined): UpstreamConfig {
  // A server resolved from a file before (and given again in code) keeps the secrets its file expanded.
  const found = new Set<string>(isRecord(value) ? expandedValues(value) : undefined);
  const resolved = upstreamEntry(value, path, env, found);
  recordExpandedValues(resolved, found);
  return resolved;
}

function upstreamEntry(
  value: unknown,
  path: string,
  env: Record<string, string | undefined> | undefined,
  found: Set<string>,
): UpstreamConfig {
  if (!isRecord(value))
    throw new InvalidOptionError({ path, message: 'must be { "command", "args"?, "env"? } or { "url", "headers"? }' });
  if (typeof value["command"] === "string") {
    const approval = policy(value, path);
    assertKnownKeys(value, STDIO_KEYS, path);
    const { command, args, env: childEnv, cwd, passEnv } = value;
    if (args !== undefined && (!Array.isArray(args) || !args.every((arg) => typeof arg === "string")))
      throw new InvalidOptionError({ path: `${path}.args`, message: "must be an array of strings" });
    if (cwd !== undefined && typeof cwd !== "string")
      throw new InvalidOptionError({ path: `${path}.cwd`, message: "must be a string" });
    return {
      command: expand(command as string, env, `${path}.command`, found),
      ...(args === undefined
        ? {}
        : { args: (args as string[]).map((arg, index) => expand(arg, env, `${path}.args.${index}`, found)) }),
      ...(childEnv === undefined ? {} : { env: stringRecord(childEnv, `${path}.env`, env, found) }),
      ...(passEnv === undefined ? {} : { passEnv: stringList(passEnv, `${path}.passEnv`, ENV_NAME) }),
      ...(cwd === undefined ? {} : { cwd: cwd as string }),
      ...approval,
    };
  }
  if (typeof value["url"] === "string") {
    const approval = policy(value, path);
    assertKnownKeys(value, HTTP_KEYS, path);
    const url = expand(value["url"], env, `${path}.url`, found);
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== "https:" && parsed.protocol !== "http:") throw new Error(parsed.protocol);
    } catch {
      // As written (before `${VAR}`s are replaced): the message must not carry their values.
      throw new InvalidOptionError({
        path: `${path}.url`,
        message: `must be an http(s) URL (got ${JSON.stringify(value["url"].slice(0, 100))})`,
      });
    }
    const transport = value["transport"] ?? value["type"];
    const kind =
      transport === undefined || transport === "http" || transport === "streamable-http" ? "http" : transport;
    if (kind !== "http" && kind !== "sse")
      throw new InvalidOptionError({ path: `${path}.transport`, message: 'must be "http" or "sse"' });
    return {
      url,
      ...(value["headers"] === undefined
        ? {}
        : { headers: stringRecord(value["headers"], `${path}.headers`, env, found) }),
      transport: kind,
      ...approval,
    };
  }
  throw new InvalidOptionError({ path, message: 'needs a "command" (stdio) or a "url" (Streamable HTTP)' });
}

/** Validates the upstream servers (a record of name → config); with `env`, `${VAR}`s are read from it. */
export function resolveUpstreams(
  servers: unknown,
  env: Record<string, string | undefined> | undefined,
  path = "servers",
): Record<string, UpstreamConfig> {
  if (!isRecord(servers) || Object.keys(servers).length === 0)
    throw new InvalidOptionError({
      path,
      message: "must name at least one MCP server ({ name: { command } | { url } })",
    });
  const out = plainRecord<UpstreamConfig>();
  for (const [name, value] of Object.entries(servers)) {
    if (!NAMESPACE.test(name) || RESERVED_NAMESPACES.has(name))
      throw new InvalidOptionError({
        path: `${path}.${name}`,
        message:
          "is not a usable namespace: a JavaScript identifier other than codemode, fetch, tools and __proto__ " +
          "(e.g. github_api)",
      });
    out[name] = upstream(value, `${path}.${name}`, env);
  }
  return out;
}

/**
 * Parses and validates the text of a `servers.json` (the `{ "mcpServers": { … } }` shape MCP hosts use); `${VAR}`
 * is read from `env`, and errors name `file` and the path inside it.
 *
 * @example
 * const config = parseProxyConfig(await readFile("servers.json", "utf8"), process.env, "servers.json");
 * const proxy = createCodemodeMcpProxy({ servers: config.mcpServers });
 */
export function parseProxyConfig(text: string, env: Record<string, string | undefined>, file: string): ProxyConfigFile {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InvalidOptionError({
      path: file,
      message: `is not JSON (${messageOf(error)})`,
    });
  }
  if (!isRecord(value))
    throw new InvalidOptionError({ path: file, message: 'must be a JSON object { "mcpServers": { … } }' });
  assertKnownKeys(value, FILE_KEYS, file);
  const { store, name, startTimeoutMs } = value;
  if (startTimeoutMs !== undefined && (!Number.isSafeInteger(startTimeoutMs) || (startTimeoutMs as number) < 1))
    throw new InvalidOptionError({
      path: `${file}.startTimeoutMs`,
      message: "must be a positive integer (milliseconds)",
    });
  if (store !== undefined && typeof store !== "string")
    throw new InvalidOptionError({ path: `${file}.store`, message: "must be a libSQL URL string" });
  if (name !== undefined && typeof name !== "string")
    throw new InvalidOptionError({ path: `${file}.name`, message: "must be a string" });
  return {
    mcpServers: resolveUpstreams(value["mcpServers"], env, `${file}.mcpServers`),
    ...(store === undefined ? {} : { store: expand(store, env, `${file}.store`) }),
    ...(name === undefined ? {} : { name }),
    ...(startTimeoutMs === undefined ? {} : { startTimeoutMs: startTimeoutMs as number }),
    ...(value["modules"] === undefined ? {} : { modules: parseModuleFiles(value["modules"], `${file}.modules`) }),
  };
}
