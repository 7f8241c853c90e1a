/**
 * Random values of every type the codec carries (JSON values, undefined, bigint, dates
 * including invalid ones, bytes, ArrayBuffer, Map, Set, and keys such as `$` and `__proto__`
 * that the encoding must not confuse with its own), nested a few levels: what the codec
 * property tests send.
 */
import fc from "fast-check";

/** One codec value. */
export const codecValue: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  leaf: fc.oneof(
    fc.string(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.constant(undefined),
    fc.bigInt(),
    fc.date(),
    fc.uint8Array({ maxLength: 10 }),
    fc.uint8Array({ maxLength: 6 }).map((bytes) => bytes.slice().buffer),
  ),
  node: fc.oneof(
    { depthSize: "small" },
    tie("leaf"),
    fc.array(tie("node"), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string(), fc.constantFrom("$", "__proto__", "constructor", "v")), tie("node"), {
      maxKeys: 4,
    }),
    fc.array(fc.tuple(tie("leaf"), tie("node")), { maxLength: 3 }).map((entries) => new Map(entries)),
    fc.array(tie("leaf"), { maxLength: 3 }).map((items) => new Set(items)),
  ),
})).node;
