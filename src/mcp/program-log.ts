/**
 * A program's console lines as MCP log messages (`notifications/message`): `console.error` is
 * `error`, `console.warn` is `warning`, `console.log`, `info` and `debug` are `info` (the sandbox
 * marks only the first two). The client gets those at or above the level it asked for
 * (`logging/setLevel` on a 2025-11-25 session, the request's own log level on 2026-07-28); the
 * MCP SDK applies the threshold.
 */
import type { LoggingLevel } from "@modelcontextprotocol/server";
import type { ProgressListener } from "../runtime/pass/progress-events.js";

/** The `logger` of every message. */
const PROGRAM_LOGGER = "codemode";

/** Sends one log message to the client of the request (rejects when it is gone; nothing waits for it). */
export type SendProgramLog = (level: LoggingLevel, data: string, logger: string) => Promise<void>;

/** The sandbox's prefixes of `console.error` and `console.warn` lines. */
const PREFIXES: ReadonlyArray<[prefix: string, level: LoggingLevel]> = [
  ["[error] ", "error"],
  ["[warn] ", "warning"],
];

/** A console line's level and text (without the sandbox's prefix). */
export function programLogMessage(line: string): { level: LoggingLevel; data: string } {
  for (const [prefix, level] of PREFIXES)
    if (line.startsWith(prefix)) return { level, data: line.slice(prefix.length) };
  return { level: "info", data: line };
}

/** A progress listener sending each console line of a run to the client by `send`. */
export function programLogListener(send: SendProgramLog): ProgressListener {
  return (event) => {
    if (event.type !== "log") return;
    const { level, data } = programLogMessage(event.line);
    void send(level, data, PROGRAM_LOGGER).catch(() => undefined);
  };
}
