/**
 * Failure reasons of an upstream server reach the model, so every value the proxy holds for that server
 * is taken out of them, wherever it appears (the command line, the URL, the server's quoted stderr or
 * error body): what `${VAR}`s were replaced by, the child's environment beyond the inherited few, and
 * header values.
 */
import { expandedValues } from "./expand-variables.js";
import { childEnvironment } from "./observed-stdio-transport.js";
import type { UpstreamConfig } from "./proxy-config.js";

/** Shorter values are not redacted (they would hide ordinary words). */
const MIN_REDACTED_CHARS = 4;

/** `text` with each secret of `config` replaced by `[redacted]`. */
export function redactUpstreamSecrets(config: UpstreamConfig, text: string): string {
  const secrets = new Set(expandedValues(config));
  if ("command" in config) {
    const given = childEnvironment({ env: config.env, passEnv: config.passEnv, from: process.env });
    for (const value of Object.values(given.env ?? {})) secrets.add(value);
  } else for (const value of Object.values(config.headers ?? {})) secrets.add(value);
  // Longest first, so a secret that contains another is removed whole.
  const ordered = [...secrets]
    .filter((value) => value.length >= MIN_REDACTED_CHARS)
    .sort((a, b) => b.length - a.length);
  return ordered.reduce((redacted, value) => redacted.split(value).join("[redacted]"), text);
}
