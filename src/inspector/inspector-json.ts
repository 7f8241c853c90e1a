/**
 * JSON for values the journal keeps with their types (`undefined`, `Date`,
 * bytes, `Map`, `Set`, `BigInt`): shown readably, never failing. Shared by the CLI's
 * `--json` and the web inspector's API.
 */
import { messageOf } from "../shared/message-of.js";

function replacer(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === "bigint") return `${value.toString()}n`;
  if (value instanceof Map) return { "<Map>": [...value.entries()] };
  if (value instanceof Set) return { "<Set>": [...value.values()] };
  if (value instanceof Uint8Array || value instanceof ArrayBuffer) return `<${value.byteLength} bytes>`;
  // `undefined` inside arrays and objects would vanish or become null: keep it visible.
  if (value === undefined && key !== "") return "<undefined>";
  return value;
}

/** `value` as JSON text; `undefined` at the top level is `"undefined"`. */
export function inspectorJson(value: unknown, indent?: number): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, replacer, indent) ?? String(value);
  } catch (error) {
    return JSON.stringify(`<not serializable: ${messageOf(error)}>`);
  }
}
