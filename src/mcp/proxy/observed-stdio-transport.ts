/**
 * The stdio transport of `@ai-sdk/mcp` with what a failed start needs to be explained: the
 * child's exit code and the last lines of its stderr (still passed on to the host's log when
 * the proxy inherits stderr). Also the environment a child gets, and the hint a person reads
 * when a server started by the proxy does not come up.
 */
import type { ChildProcess } from "node:child_process";
import type { JSONRPCMessage, MCPTransport } from "@ai-sdk/mcp";
import type { StdioMCPTransport } from "@ai-sdk/mcp/mcp-stdio";

/** What the child's stderr does besides being kept: passed to the host's log, or dropped. */
type StderrMode = "inherit" | "ignore";

/** What a child inherits from the proxy's environment without `passEnv` (the AI SDK's stdio defaults). */
const INHERITED_ENV_NAMES = ["HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"] as const;
/** Stderr kept for a failure reason: the last lines, at most this many characters. */
const STDERR_TAIL_CHARS = 600;
const STDERR_TAIL_LINES = 5;

/** The child's environment on top of the inherited few: `passEnv` names copied from `from`, then `env`. */
export function childEnvironment({
  env,
  passEnv,
  from,
}: {
  env: Record<string, string> | undefined;
  passEnv: readonly string[] | undefined;
  from: Record<string, string | undefined>;
}): { env: Record<string, string> | undefined; missing: string[] } {
  const missing: string[] = [];
  const passed: Record<string, string> = {};
  for (const name of passEnv ?? []) {
    const value = from[name];
    if (value === undefined) missing.push(name);
    else passed[name] = value;
  }
  const merged = { ...passed, ...env };
  return { env: Object.keys(merged).length === 0 ? undefined : merged, missing };
}

/** The hint for a stdio server that did not start: what it was given of the proxy's environment. */
export function environmentHint(missing: readonly string[]): string {
  return (
    `A server the proxy starts gets only ${INHERITED_ENV_NAMES.join(", ")} from the proxy's environment, plus its "env" ` +
    `and "passEnv": if it needs a network proxy, a CA bundle or npm settings (HTTPS_PROXY, NODE_EXTRA_CA_CERTS, ` +
    `npm_config_registry, …), list their names in "passEnv".` +
    (missing.length === 0 ? "" : ` Not set in the proxy's environment: ${missing.join(", ")}.`)
  );
}

/** `@ai-sdk/mcp`'s stdio transport, observed: exit code and stderr tail, for failure reasons. */
export class ObservedStdioTransport implements MCPTransport {
  readonly #inner: StdioMCPTransport;
  readonly #stderr: StderrMode;
  #tail = "";
  #exitCode: number | null | undefined;
  #signal: string | null | undefined;
  #markEnded: () => void = () => undefined;
  readonly #ended = new Promise<void>((resolve) => {
    this.#markEnded = resolve;
  });

  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  constructor({ inner, stderr }: { inner: StdioMCPTransport; stderr: StderrMode }) {
    this.#inner = inner;
    this.#stderr = stderr;
    inner.onclose = () => this.onclose?.();
    inner.onerror = (error) => this.onerror?.(error as Error);
    inner.onmessage = (message) => this.onmessage?.(message);
  }

  /** As the AI SDK's stdio transport says (it probes for the protocol version). */
  get supportsProtocolVersionDiscovery(): boolean {
    return this.#inner.supportsProtocolVersionDiscovery === true;
  }

  async start(): Promise<void> {
    try {
      await this.#inner.start();
    } catch (error) {
      this.#markEnded();
      throw error;
    }
    // The spawned child is a field of the AI SDK's transport (not typed): without it, reasons lack code and stderr.
    const child = (this.#inner as unknown as { process?: ChildProcess }).process;
    child?.once("exit", (code, signal) => {
      this.#exitCode = code;
      this.#signal = signal;
    });
    // "close" comes after the child's stdio ended: its whole stderr has been read by then.
    child?.once("close", () => this.#markEnded());
    if (child === undefined) this.#markEnded();
    child?.stderr?.on("data", (chunk: Buffer) => {
      if (this.#stderr === "inherit") process.stderr.write(chunk);
      this.#tail = (this.#tail + chunk.toString("utf8")).slice(-4 * STDERR_TAIL_CHARS);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.#inner.send(message);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  /** Stops the child now: the AI SDK's `close()` signals it before its first `await`. */
  kill(): void {
    void this.#inner.close().catch(() => undefined);
  }

  /** Resolves when the child ended and its stderr was read (or it never started). */
  get finished(): Promise<void> {
    return this.#ended;
  }

  /** Resolves when the child ended and its stderr was read, or after `waitMs`, whichever is first. */
  async ended(waitMs: number): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.#ended, new Promise<void>((resolve) => (timer = setTimeout(resolve, waitMs)))]);
    clearTimeout(timer);
  }

  /** How the child ended (`undefined` while it runs). */
  get exit(): string | undefined {
    if (this.#exitCode === undefined) return undefined;
    return this.#exitCode === null
      ? `was killed by ${this.#signal ?? "a signal"}`
      : `exited with code ${this.#exitCode}`;
  }

  /** The last lines the child wrote to stderr, or `""`. */
  get stderrTail(): string {
    const lines = this.#tail.trimEnd().split(/\r?\n/).slice(-STDERR_TAIL_LINES).join("\n");
    return lines.length > STDERR_TAIL_CHARS ? `…${lines.slice(-STDERR_TAIL_CHARS)}` : lines;
  }
}
