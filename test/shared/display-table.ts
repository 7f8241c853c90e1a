/**
 * The table of displays every place is held to: a program expression, the same value on the host, and the text
 * people and models read (test/shared/display-value.test.ts checks the host and the sandbox's console against it;
 * test/shared/display-places.test.ts one value of every kind through the model, the chat, the CLI and the inspector).
 */

/** One row: a program expression, the same value on the host, and its display text. */
export interface DisplayRow {
  name: string;
  source: string;
  value: unknown;
  text: string;
}

/** The display of each value that JSON cannot hold, and of the containers around it. */
export const DISPLAY_TABLE: readonly DisplayRow[] = [
  { name: "BigInt", source: "123n", value: 123n, text: "123n" },
  { name: "negative BigInt", source: "-5n", value: -5n, text: "-5n" },
  {
    name: "Map with string keys",
    source: 'new Map([["a", 1], ["b", 2n]])',
    value: new Map<string, unknown>([
      ["a", 1],
      ["b", 2n],
    ]),
    text: '{"Map(2)":{"a":1,"b":"2n"}}',
  },
  {
    name: "Map with other keys",
    source: 'new Map([[1, "one"], ["x", undefined]])',
    value: new Map<unknown, unknown>([
      [1, "one"],
      ["x", undefined],
    ]),
    text: '{"Map(2)":[[1,"one"],["x","undefined"]]}',
  },
  { name: "empty Map", source: "new Map()", value: new Map(), text: '{"Map(0)":{}}' },
  { name: "Set", source: 'new Set([1, "a", 3n])', value: new Set([1, "a", 3n]), text: '{"Set(3)":[1,"a","3n"]}' },
  {
    name: "Date",
    source: 'new Date("2026-01-02T03:04:05.006Z")',
    value: new Date("2026-01-02T03:04:05.006Z"),
    text: "2026-01-02T03:04:05.006Z",
  },
  { name: "invalid Date", source: "new Date(NaN)", value: new Date(Number.NaN), text: "Invalid Date" },
  {
    name: "Uint8Array",
    source: "new Uint8Array([1, 2, 255])",
    value: new Uint8Array([1, 2, 255]),
    text: '{"Uint8Array(3)":"01 02 ff"}',
  },
  {
    name: "ArrayBuffer",
    source: "new Uint8Array([0, 16]).buffer",
    value: new Uint8Array([0, 16]).buffer,
    text: '{"ArrayBuffer(2)":"00 10"}',
  },
  { name: "undefined", source: "undefined", value: undefined, text: "undefined" },
  { name: "-0", source: "-0", value: -0, text: "-0" },
  { name: "NaN", source: "NaN", value: Number.NaN, text: "NaN" },
  { name: "-Infinity", source: "-Infinity", value: Number.NEGATIVE_INFINITY, text: "-Infinity" },
  { name: "Error", source: 'new TypeError("bad")', value: new TypeError("bad"), text: "TypeError: bad" },
  { name: "string", source: '"plain"', value: "plain", text: "plain" },
  { name: "number", source: "1.5", value: 1.5, text: "1.5" },
  { name: "null", source: "null", value: null, text: "null" },
  {
    name: "undefined in an array, absent as a field",
    source: "[undefined, { a: undefined, b: 1 }]",
    value: [undefined, { a: undefined, b: 1 }],
    text: '["undefined",{"b":1}]',
  },
  {
    name: "every leaf nested",
    source:
      '({ big: 1n, zero: -0, nan: NaN, at: new Date(0), bytes: new Uint8Array([7]), s: new Set(), "a b": [null, true] })',
    value: {
      big: 1n,
      zero: -0,
      nan: Number.NaN,
      at: new Date(0),
      bytes: new Uint8Array([7]),
      s: new Set(),
      "a b": [null, true],
    },
    text: '{"big":"1n","zero":"-0","nan":"NaN","at":"1970-01-01T00:00:00.000Z","bytes":{"Uint8Array(1)":"07"},"s":{"Set(0)":[]},"a b":[null,true]}',
  },
  {
    name: "a field named __proto__",
    source: 'Object.defineProperty({}, "__proto__", { value: 1n, enumerable: true })',
    value: Object.defineProperty({}, "__proto__", { value: 1n, enumerable: true }),
    text: '{"__proto__":"1n"}',
  },
];

/** One value holding every kind JSON cannot: what the places test runs through a real execution. */
export const SAMPLE_SOURCE =
  '({ big: 1n, map: new Map([["a", 1]]), set: new Set([1]), date: new Date(0), bytes: new Uint8Array([1, 2]), buffer: new Uint8Array([3]).buffer, list: [undefined, -0, NaN] })';

/** The display of {@link SAMPLE_SOURCE}, as JSON text. */
export const SAMPLE_TEXT =
  '{"big":"1n","map":{"Map(1)":{"a":1}},"set":{"Set(1)":[1]},"date":"1970-01-01T00:00:00.000Z","bytes":{"Uint8Array(2)":"01 02"},"buffer":{"ArrayBuffer(1)":"03"},"list":["undefined","-0","NaN"]}';
