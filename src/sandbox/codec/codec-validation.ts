/**
 * Validator for the codec's tagged tree (format described at the top of `codec.ts`).
 * Trees come from the sandbox, worker messages and the journal: never trusted unchecked.
 */
import { MAX_ENCODE_DEPTH, memberPath as guestMemberPath, shortPath } from "../guest/value-codec.js";

/** The tags of the codec format. */
type EncodedTag = "undefined" | "number" | "bigint" | "date" | "bytes" | "arraybuffer" | "map" | "set" | "object";

/** A JSON-safe tagged tree made by `encodeValue`. */
export type EncodedValue =
  | string
  | number
  | boolean
  | null
  | EncodedValue[]
  | { [key: string]: EncodedValue }
  | { $: EncodedTag; v?: unknown };

/** Why a tree is not a valid `EncodedValue`, and where. */
export interface CodecProblem {
  path: string;
  message: string;
}

const SPECIAL_NUMBERS = new Set(["NaN", "Infinity", "-Infinity", "-0"]);
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const INTEGER = /^-?\d+$/;
/** Longest BigInt payload accepted: the codec refuses BigInts of 2^13288 and more (at most 4,001 digits). */
const MAX_BIGINT_CHARS = 4_002;
/** Bound on nesting so a hostile tree cannot overflow the host stack while validating: the codec's own. */
const MAX_DEPTH = MAX_ENCODE_DEPTH;

/** The path of member `name` under `path` as a reader would write it: `args.user`, `args["list-prs"]`. */
export function memberPath(path: string, name: string): string {
  return guestMemberPath(path, name, JSON.stringify);
}

function validateTag(tree: Record<string, unknown>, path: string, depth: number): CodecProblem | undefined {
  const tag = tree.$;
  const payload = tree.v;
  const fail = (message: string): CodecProblem => ({ path, message: `invalid encoded ${String(tag)}: ${message}` });
  switch (tag) {
    case "undefined":
      return undefined;
    case "number":
      return typeof payload === "string" && SPECIAL_NUMBERS.has(payload)
        ? undefined
        : fail("expected NaN, Infinity, -Infinity or -0");
    case "bigint":
      if (typeof payload === "string" && payload.length > MAX_BIGINT_CHARS)
        return fail(`more than ${MAX_BIGINT_CHARS - 1} digits`);
      return typeof payload === "string" && INTEGER.test(payload)
        ? undefined
        : fail("expected a decimal integer string");
    case "date":
      return payload === null || (typeof payload === "number" && Number.isFinite(payload))
        ? undefined
        : fail("expected milliseconds or null");
    case "bytes":
    case "arraybuffer":
      return typeof payload === "string" && BASE64.test(payload) ? undefined : fail("expected base64");
    case "set":
      if (!Array.isArray(payload)) return fail("expected an array");
      return validateList(payload, path, depth);
    case "map": {
      if (!Array.isArray(payload)) return fail("expected an array of entries");
      for (let index = 0; index < payload.length; index++) {
        const entry: unknown = payload[index];
        if (!Array.isArray(entry) || entry.length !== 2)
          return { path: `${path}.<entry ${index}>`, message: "invalid encoded map entry: expected [key, value]" };
        const problem = validateList(entry, `${path}.<entry ${index}>`, depth);
        if (problem) return problem;
      }
      return undefined;
    }
    case "object":
      if (payload === null || typeof payload !== "object" || Array.isArray(payload)) return fail("expected an object");
      return validateFields(payload as Record<string, unknown>, path, depth);
    default:
      return { path, message: `unknown tag ${JSON.stringify(tag)}` };
  }
}

function validateList(items: unknown[], path: string, depth: number): CodecProblem | undefined {
  for (let index = 0; index < items.length; index++) {
    const problem = validateAt(items[index], `${path}[${index}]`, depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function validateFields(fields: Record<string, unknown>, path: string, depth: number): CodecProblem | undefined {
  for (const name of Object.keys(fields)) {
    const problem = validateAt(fields[name], memberPath(path, name), depth + 1);
    if (problem) return problem;
  }
  return undefined;
}

function validateAt(tree: unknown, path: string, depth: number): CodecProblem | undefined {
  if (depth > MAX_DEPTH) return { path: shortPath(path), message: `nested deeper than ${MAX_DEPTH} levels` };
  switch (typeof tree) {
    case "string":
    case "boolean":
      return undefined;
    case "number":
      return Number.isFinite(tree) && !Object.is(tree, -0)
        ? undefined
        : { path, message: "non-finite or -0 number must be tagged" };
    case "object":
      break;
    default:
      return { path, message: `a ${typeof tree} is not part of the encoded format` };
  }
  if (tree === null) return undefined;
  if (Array.isArray(tree)) return validateList(tree, path, depth);
  const proto = Object.getPrototypeOf(tree) as unknown;
  if (proto !== Object.prototype && proto !== null) return { path, message: "expected a plain object" };
  const fields = tree as Record<string, unknown>;
  if (Object.hasOwn(fields, "$")) return validateTag(fields, path, depth);
  return validateFields(fields, path, depth);
}

/** Checks an untrusted tree against the codec format. Returns the first problem, or `undefined` if valid. */
export function validateEncodedValue(tree: unknown, path = "value"): CodecProblem | undefined {
  return validateAt(tree, path, 0);
}
