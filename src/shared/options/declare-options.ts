/**
 * One declaration per options object, checked against its public interface: the interface (plain, with TSDoc) is
 * what users read; `declareOptions<Options>()({ … })` takes exactly one field per option of it (a missing or extra
 * field does not compile), each saying how its option is read (its check and its default). The key check with
 * "did you mean" and the resolved type come from that table, so adding an option is one interface member, one
 * field and its use. None of these types appears in a published declaration.
 */
import { InvalidOptionError } from "../../errors.js";
import { isRecord } from "../is-record.js";
import { assertKnownKeys } from "../known-keys.js";

/** How one option is read: `read` validates the given value (undefined when omitted) and fills the default. */
export interface OptionField<Output> {
  /** Throws `InvalidOptionError` at `path` for a bad value; returns the resolved value. */
  readonly read: (value: unknown, path: string) => Output;
}

/** The field table of options interface `T`: one field for each of its options, optional ones included. */
export type OptionFieldsFor<T> = { readonly [K in keyof Required<T>]: OptionField<unknown> };

/** The options of a field table once read: every default filled. */
export type ResolvedOf<F> = { -readonly [K in keyof F]: F[K] extends OptionField<infer Output> ? Output : never };

/** A field from its reader. */
export function option<Output>(read: (value: unknown, path: string) => Output): OptionField<Output> {
  return { read };
}

/** A declared options object: its keys, and its resolver. */
export interface DeclaredOptions<T, F> {
  readonly fields: F;
  /** Every option name, for key checks elsewhere (e.g. the runtime's `limits` takes the executor's). */
  readonly keys: ReadonlyArray<keyof T & string>;
  /**
   * Reads `options` (undefined: all defaults). `path` names the object in messages: `""` for a top-level options
   * object (unknown keys at `options.<key>`, values at `<key>`), else e.g. `limits` (`limits.timeoutMs`).
   */
  resolve(options: unknown, path: string): ResolvedOf<F>;
}

/**
 * Declares the checks of options interface `T` once: `declareOptions<T>()({ key: field, … })`. Two calls so `T` is
 * given and the table's own type is inferred (its resolved types come from it); a key of `T` left out, or a key `T`
 * lacks, fails to compile.
 */
export function declareOptions<T extends object>() {
  return <F extends OptionFieldsFor<T>>(
    fields: F & { readonly [K in Exclude<keyof F, keyof T>]: never },
  ): DeclaredOptions<T, F> => {
    const keys = Object.keys(fields) as Array<keyof T & string>;
    return {
      fields,
      keys,
      resolve(options, path) {
        const given = options ?? {};
        if (!isRecord(given)) throw new InvalidOptionError({ path: path || "options", message: "must be an object" });
        assertKnownKeys(given, keys, path || "options");
        const resolved: Record<string, unknown> = {};
        for (const key of keys) {
          const field = (fields as Record<string, OptionField<unknown>>)[key]!;
          resolved[key] = field.read(given[key], path === "" ? key : `${path}.${key}`);
        }
        return resolved as ResolvedOf<F>;
      },
    };
  };
}
