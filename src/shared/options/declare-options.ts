/**
 * One declaration per options object: a table of fields, each saying how its option is read (its check and its
 * default) and carrying its TSDoc. The options type, the key check with "did you mean", and the resolved type
 * all come from that table, so adding an option is one entry plus its use.
 */
import { InvalidOptionError } from "../../errors.js";
import { isRecord } from "../is-record.js";
import { assertKnownKeys } from "../known-keys.js";

/** How one option is read: `read` validates the given value (undefined when omitted) and fills the default. */
export interface OptionField<Input, Output> {
  /** Throws `InvalidOptionError` at `path` for a bad value; returns the resolved value. */
  readonly read: (value: unknown, path: string) => Output;
  /** Only a type: what a user writes for this option. */
  readonly input?: Input;
}

// biome-ignore lint/suspicious/noExplicitAny: a field of any input and output type.
type AnyField = OptionField<any, any>;

/** A declaration: option name → field. */
export type OptionFields = Record<string, AnyField>;

/** What a user writes for a field. */
type InputOf<F> = F extends OptionField<infer Input, unknown> ? Input : never;

/**
 * The options a declaration takes, every one optional (a homomorphic mapping, so each option keeps the TSDoc of
 * its field). Required options are made so with `Required<Pick<…>>` by the caller.
 */
export type OptionsOf<F extends OptionFields> = { [K in keyof F]?: InputOf<F[K]> };

/** The options once read: every default filled. */
export type ResolvedOf<F extends OptionFields> = { [K in keyof F]: ReturnType<F[K]["read"]> };

/** A field from its reader; `Input` is the type users write (by default what the reader returns). */
export function option<Input, Output = Input>(
  read: (value: unknown, path: string) => Output,
): OptionField<Input, Output> {
  return { read };
}

/** A declared options object: its keys, and its resolver. */
export interface DeclaredOptions<F extends OptionFields> {
  readonly fields: F;
  /** Every option name, for key checks elsewhere (e.g. the runtime's `limits` takes the executor's). */
  readonly keys: ReadonlyArray<keyof F & string>;
  /**
   * Reads `options` (undefined: all defaults). `path` names the object in messages: `""` for a top-level options
   * object (unknown keys at `options.<key>`, values at `<key>`), else e.g. `limits` (`limits.timeoutMs`).
   */
  resolve(options: unknown, path: string): ResolvedOf<F>;
}

/** Declares an options object once, from its fields. */
export function declareOptions<F extends OptionFields>(fields: F): DeclaredOptions<F> {
  const keys = Object.keys(fields) as Array<keyof F & string>;
  return {
    fields,
    keys,
    resolve(options, path) {
      const given = options ?? {};
      if (!isRecord(given)) throw new InvalidOptionError({ path: path || "options", message: "must be an object" });
      assertKnownKeys(given, keys, path || "options");
      const resolved: Record<string, unknown> = {};
      for (const key of keys) resolved[key] = fields[key]!.read(given[key], path === "" ? key : `${path}.${key}`);
      return resolved as ResolvedOf<F>;
    },
  };
}
