/**
 * The one display of program values, for everything people and models read: the model's view of a result, the
 * chat's tool output and approval card, the CLI and the inspector. It is JSON, so a model can parse it; what JSON
 * cannot hold becomes a readable string (`"1n"`, `"NaN"`, `"-0"`, `"undefined"`, an ISO date) and a typed container
 * an object under one key naming its type (`{"Map(1)": {"a": 1}}`). The sandbox's `console` (src/sandbox/guest/render.js)
 * writes the same grammar; test/shared/display-value.test.ts holds both to one table. Storage keeps its own codec.
 * docs/decisions/one-display-of-values.md says why.
 */

/** A value's display: plain JSON. */
export type DisplayJson = null | boolean | number | string | DisplayJson[] | { [key: string]: DisplayJson };

/** Nesting shown before an object or array becomes `"[Object]"` / `"[Array]"` (guards pathological results). */
const MAX_DISPLAY_DEPTH = 64;

/** Bytes as two hex digits each, space-separated (`"01 ff"`): how people read bytes. */
function hex(bytes: Uint8Array): string {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join(" ");
}

function show(value: unknown, depth: number, ancestors: readonly object[]): DisplayJson {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      if (Object.is(value, -0)) return "-0";
      return Number.isFinite(value) ? value : String(value);
    case "bigint":
      return `${value}n`;
    case "undefined":
      return "undefined";
    case "symbol":
      return value.toString();
    case "function":
      return `[Function${value.name ? `: ${value.name}` : " (anonymous)"}]`;
  }
  if (value === null) return null;
  const object = value as object;
  if (ancestors.includes(object)) return "[Circular]";
  if (object instanceof Date) return Number.isNaN(object.getTime()) ? "Invalid Date" : object.toISOString();
  if (object instanceof Error) return `${object.name || "Error"}: ${object.message}`;
  if (depth > MAX_DISPLAY_DEPTH) return Array.isArray(object) ? "[Array]" : "[Object]";
  const inner = [...ancestors, object];
  const item = (member: unknown): DisplayJson => show(member, depth + 1, inner);
  if (Array.isArray(object)) return Array.from(object, item);
  if (object instanceof Map) {
    const entries = [...object.entries()];
    const content = entries.every(([key]) => typeof key === "string")
      ? Object.fromEntries(entries.map(([key, member]) => [key, item(member)]))
      : entries.map(([key, member]) => [item(key), item(member)]);
    return { [`Map(${object.size})`]: content };
  }
  if (object instanceof Set) return { [`Set(${object.size})`]: [...object].map(item) };
  if (object instanceof Uint8Array) return { [`Uint8Array(${object.length})`]: hex(object) };
  if (object instanceof ArrayBuffer) return { [`ArrayBuffer(${object.byteLength})`]: hex(new Uint8Array(object)) };
  // A field holding `undefined` is absent, as in JSON (optional fields read as missing, not as "undefined").
  return Object.fromEntries(
    Object.entries(object).flatMap(([key, member]) => (member === undefined ? [] : [[key, item(member)]])),
  );
}

/** `value` as its display JSON. */
export function displayJson(value: unknown): DisplayJson {
  return show(value, 0, []);
}

/**
 * `value` as one line of display text: a value whose display is a string reads as that string (`1n`, `hello`),
 * anything else as compact JSON — what `console.log(value)` writes in the sandbox.
 */
export function displayText(value: unknown): string {
  const shown = displayJson(value);
  return typeof shown === "string" ? shown : JSON.stringify(shown);
}
