/**
 * Ranked lexical search (BM25 via `minisearch`) over connector methods and snippets. Names are
 * split on `_`, `-`, `.` and camelCase; every word goes through `search/terms.ts` (short forms read
 * as their words, Porter stems) in the name, the description's first sentence (weighted most: it is
 * how a tool says what it does), the rest of the description and the parameter names. A query also
 * searches the thesaurus' synonyms of its words at a lower weight; hits are re-ranked by how much of
 * the query their name and first sentence cover (`search/rerank.ts`). A query's cost is bounded (`MAX_QUERY_*`).
 * Order is deterministic: score (unrounded), then path.
 */
import MiniSearch from "minisearch";
import { type KeyTerms, rerank, withExtensions } from "./rerank.js";
import { blendScores, lexicallyDecided } from "./semantic-blend.js";
import { queryConcepts, termsOfWord, weightedTerms } from "./terms.js";
import type { SearchOutput, SearchResult } from "../types.js";
import { firstSentence } from "../../shared/first-sentence.js";

/** One searchable entry. */
export interface SearchDocument {
  /** `connector.method` or `snippets.name`. */
  path: string;
  connector: string;
  method: string;
  kind: "method" | "snippet" | "module";
  description?: string;
  /** The connector's own description (weighted low: it is shared by every method). */
  namespace?: string;
  /** Parameter names. */
  params: string[];
  /** Parameter descriptions (weighted low). */
  details?: string;
}

/**
 * Results per search when the caller gives no limit: enough to choose from,
 * few enough that a search costs ~200 tokens (refine the query for more).
 */
const DEFAULT_SEARCH_LIMIT = 5;
/** Upper bound on `limit`, so one search cannot flood the model's context. */
const MAX_SEARCH_LIMIT = 50;
/** A result's `description` is cut to this many characters (search returns paths, not schemas). */
const SEARCH_DESCRIPTION_MAX_CHARS = 160;
/**
 * Bounds on what one query may cost (the program controls the query). A query is read up to
 * `MAX_QUERY_CHARS` characters, each word up to `MAX_TERM_CHARS`, and its first
 * `MAX_QUERY_TERMS` distinct words are searched; fuzzy matching allows at most
 * `MAX_FUZZY_EDITS` edits. A person's or a model's query is far inside every bound.
 */
export const MAX_QUERY_CHARS = 1_000;
export const MAX_QUERY_TERMS = 32;
export const MAX_TERM_CHARS = 40;
const MAX_FUZZY_EDITS = 2;

/** The words of a query, bounded as above, joined by spaces (what the index searches). */
export function boundQuery(query: string): string {
  const words = new Set<string>();
  for (const word of tokenize(query.slice(0, MAX_QUERY_CHARS))) {
    words.add(word.slice(0, MAX_TERM_CHARS));
    if (words.size === MAX_QUERY_TERMS) break;
  }
  return [...words].join(" ");
}

/** Words of a name or text: split on non-alphanumerics and camelCase, lower-cased. */
export function tokenize(text: string): string[] {
  return (
    text
      // A plural acronym is the acronym (`PRs`, `URLs`), not `P` and `Rs`.
      .replace(/([A-Z]{2,})s(?![a-z])/g, "$1")
      .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
      .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((word) => word !== "")
  );
}

/** Words too common to rank by (`create an issue` ranks on `create` and `issue`). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  "a an the of to in on for by with and or from is are be me my i all any this that it its into as at".split(" "),
);

/** Abbreviations API names use for words that queries spell out: both sides fold to the short form. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  repository: "repo",
  organization: "org",
  organisation: "org",
  configuration: "config",
  application: "app",
  information: "info",
  authentication: "auth",
  directory: "dir",
  environment: "env",
  parameter: "param",
  message: "msg",
  identifier: "id",
  administrator: "admin",
  reference: "ref",
  specification: "spec",
};

/**
 * A light, deterministic normalisation applied to indexed and query terms alike:
 * plural folding (`issues` → `issue`, `repositories` → `repository`), then
 * common abbreviations (`repository` → `repo`). Stop words are dropped (`null`).
 */
export function normaliseTerm(term: string): string | null {
  if (STOP_WORDS.has(term)) return null;
  let folded = term;
  if (folded.length > 4 && folded.endsWith("ies")) folded = `${folded.slice(0, -3)}y`;
  else if (folded.length > 3 && folded.endsWith("s") && !folded.endsWith("ss") && !folded.endsWith("us"))
    folded = folded.slice(0, -1);
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
  return Object.hasOwn(ABBREVIATIONS, folded) ? (ABBREVIATIONS[folded] as string) : folded;
}

/** The first sentence (or line) of a description, cut to `SEARCH_DESCRIPTION_MAX_CHARS`. */
export function summarise(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const sentence = firstSentence(description);
  if (sentence === "") return undefined;
  return sentence.length > SEARCH_DESCRIPTION_MAX_CHARS
    ? `${sentence.slice(0, SEARCH_DESCRIPTION_MAX_CHARS - 1)}…`
    : sentence;
}

interface IndexedDocument {
  id: string;
  connector: string;
  method: string;
  summary: string;
  description: string;
  namespace: string;
  params: string;
  details: string;
}

/** Options of one search. */
export interface SearchOptions {
  /** Results returned. @default 5 (`DEFAULT_SEARCH_LIMIT`), at most 50 */
  limit?: number;
  /**
   * Cosine similarity of each document (by path) to the query, from an embedding model: when given, scores
   * blend it with the lexical score (`search/semantic-blend.ts`). Without it, the ranking is lexical only.
   */
  similarity?: ReadonlyMap<string, number>;
}

/** A built index; immutable after creation. */
export interface SearchIndex {
  search(query: string, options?: SearchOptions): SearchOutput;
  /**
   * Whether the lexical ranking settles `query` (its best hit clearly ahead: `search/semantic-blend.ts`), so a
   * blended search would not ask for its similarity. An empty query is decided; a query with no hit is not.
   */
  isLexicallyDecided(query: string): boolean;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return DEFAULT_SEARCH_LIMIT;
  return Math.max(1, Math.min(MAX_SEARCH_LIMIT, Math.floor(limit)));
}

/**
 * A score as shown: two significant digits, whole numbers from 10 up (`90.42` → `90`,
 * `4.567` → `4.6`). Scores only say how close hits are; more digits cost tokens and
 * say nothing a model uses. Results are ranked on the unrounded score.
 */
export function displayScore(score: number): number {
  return score >= 10 ? Math.round(score) : Number(score.toPrecision(2));
}

interface RankedResult {
  document: SearchDocument;
  /** The unrounded score, for ranking. */
  rank: number;
}

/** The result as returned (built only for the hits shown: `summarise` is not free over 10,000 hits). */
function toResult({ document, rank }: RankedResult): SearchResult {
  const result: SearchResult = {
    path: document.path,
    connector: document.connector,
    method: document.method,
    kind: document.kind,
    score: displayScore(rank),
  };
  const description = summarise(document.description);
  if (description !== undefined) result.description = description;
  return result;
}

function byScoreThenPath(a: RankedResult, b: RankedResult): number {
  return b.rank - a.rank || (a.document.path < b.document.path ? -1 : a.document.path > b.document.path ? 1 : 0);
}

/** Weights of the fields (BM25 scores per field are multiplied by these). */
const FIELD_BOOST = {
  summary: 4,
  method: 2,
  connector: 1,
  params: 0.5,
  description: 0.5,
  namespace: 0.3,
  details: 0.3,
};
function termsOf(text: string): string[] {
  return tokenize(text).flatMap(termsOfWord);
}

/**
 * Builds the index. An empty query lists every entry (score 0, by path), so
 * `codemode.search("")` is a table of contents.
 */
export function createSearchIndex(documents: SearchDocument[]): SearchIndex {
  const byPath = new Map(documents.map((document) => [document.path, document]));
  const keyTerms = new Map(
    documents.map((document): [string, KeyTerms] => [
      document.path,
      {
        name: new Set(termsOf(document.method)),
        summary: new Set(termsOf(summarise(document.description) ?? "")),
        words: new Set(tokenize(document.method)),
      },
    ]),
  );
  // Terms of any name or first sentence: a query word among them is the catalog's own word, never expanded.
  const vocabulary = new Set<string>();
  for (const key of keyTerms.values()) for (const term of [...key.name, ...key.summary]) vocabulary.add(term);
  const known = (term: string): boolean => vocabulary.has(term);
  const sortedVocabulary = [...vocabulary].sort();
  const index = new MiniSearch<IndexedDocument>({
    fields: ["connector", "method", "summary", "description", "namespace", "params", "details"],
    storeFields: [],
    tokenize,
    processTerm: (term) => termsOfWord(term.toLowerCase()),
    searchOptions: {
      boost: FIELD_BOOST,
      prefix: (term) => term.length >= 4,
      fuzzy: (term) => (term.length >= 6 ? 0.2 : false),
      maxFuzzy: MAX_FUZZY_EDITS,
      combineWith: "OR",
    },
  });
  index.addAll(
    documents.map((document) => ({
      id: document.path,
      connector: document.connector,
      method: document.method,
      summary: summarise(document.description) ?? "",
      description: document.description ?? "",
      namespace: document.namespace ?? "",
      params: document.params.join(" "),
      details: document.details ?? "",
    })),
  );
  function ranked(query: string): RankedResult[] {
    const words = boundQuery(query)
      .split(" ")
      .filter((word) => word !== "")
      .map((word) => word.toLowerCase());
    const concepts = queryConcepts(words, known);
    const contentWords = words.filter((word) => termsOfWord(word).length > 0);
    const terms = weightedTerms(concepts);
    if (terms.size === 0) return [];
    const hits = index.search([...terms.keys()].join(" "), {
      tokenize: (text) => text.split(" "),
      processTerm: (term) => term,
      boostTerm: (term) => terms.get(term) ?? 1,
    });
    const best = hits.reduce((top, hit) => Math.max(top, hit.score), 0);
    const extended = concepts.map((concept) => withExtensions(concept, sortedVocabulary));
    return hits.flatMap((hit) => {
      const document = byPath.get(String(hit.id));
      const key = keyTerms.get(String(hit.id));
      return document === undefined || key === undefined
        ? []
        : [{ document, rank: rerank(hit.score, best, key, extended, terms, contentWords) }];
    });
  }
  // The last query's lexical ranking: a blended search asks `isLexicallyDecided` and then searches the same query.
  let last: { query: string; hits: RankedResult[] } | undefined;
  function rankedOnce(query: string): RankedResult[] {
    if (last?.query !== query) last = { query, hits: ranked(query) };
    return last.hits;
  }
  function blended(lexical: RankedResult[], similarity: ReadonlyMap<string, number>): RankedResult[] {
    const scores = blendScores(new Map(lexical.map((hit) => [hit.document.path, hit.rank])), similarity);
    return [...scores].flatMap(([path, rank]) => {
      const document = byPath.get(path);
      return document === undefined ? [] : [{ document, rank }];
    });
  }
  return {
    search(query, options) {
      const limit = clampLimit(options?.limit);
      const hits: RankedResult[] =
        query.trim() === ""
          ? documents.map((document) => ({ document, rank: 0 }))
          : options?.similarity === undefined
            ? rankedOnce(query) // sorted in place below: always into the same order
            : blended(rankedOnce(query), options.similarity);
      hits.sort(byScoreThenPath);
      return { results: hits.slice(0, limit).map(toResult), total: hits.length, truncated: hits.length > limit };
    },
    isLexicallyDecided(query) {
      if (query.trim() === "") return true;
      return lexicallyDecided(rankedOnce(query).map((hit) => hit.rank));
    },
  };
}
