/**
 * `${VAR}` in servers.json, replaced from the proxy's environment, and what each resolved server's
 * `${VAR}`s were replaced by: those values are secrets, redacted from every reason the model reads.
 */
import { InvalidOptionError } from "../../errors.js";

/** The values `${VAR}`s were replaced by in each resolved server: they are secrets, redacted from every reason. */
const EXPANDED = new WeakMap<object, readonly string[]>();

/** What the `${VAR}`s of a resolved server were replaced by (none for servers given in code). */
export function expandedValues(config: object): readonly string[] {
  return EXPANDED.get(config) ?? [];
}

/** Records what the `${VAR}`s of `config` were replaced by. */
export function recordExpandedValues(config: object, values: Iterable<string>): void {
  EXPANDED.set(config, [...values]);
}

/**
 * `${VAR}` replaced from `env` (each value replaced is added to `found`); without `env` (servers given in code)
 * the value is taken as written.
 */
export function expand(
  value: string,
  env: Record<string, string | undefined> | undefined,
  path: string,
  found?: Set<string>,
): string {
  if (env === undefined) return value;
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_, name: string) => {
    const given = env[name];
    if (given === undefined)
      throw new InvalidOptionError({ path, message: `names \${${name}}, which is not set in the proxy's environment` });
    found?.add(given);
    return given;
  });
}
