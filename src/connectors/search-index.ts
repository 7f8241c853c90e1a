/**
 * Ranked lexical search (BM25 via `minisearch`) over connector methods and
 * snippets: names split on `_`, `-`, `.` and camelCase, the description's first
 * sentence (weighted most: it is how a tool says what it does), the rest of
 * the description and parameter names. Order is deterministic: score (unrounded), then path.
 */
import MiniSearch from "minisearch";
import type { SearchOutput, SearchResult } from "./types.js";
import { firstSentence } from "../shared/first-sentence.js";

/** One searchable entry. */
export interface SearchDocument {
  /** `connector.method` or `snippets.name`. */
  path: string;
  connector: string;
  method: string;
  kind: "method" | "snippet";
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
export const DEFAULT_SEARCH_LIMIT = 5;
/** Upper bound on `limit`, so one search cannot flood the model's context. */
export const MAX_SEARCH_LIMIT = 50;
/** A result's `description` is cut to this many characters (search returns paths, not schemas). */
export const SEARCH_DESCRIPTION_MAX_CHARS = 160;

/** Words of a name or text: split on non-alphanumerics and camelCase, lower-cased. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== "");
}

/** Words too common to rank by (`create an issue` ranks on `create` and `issue`). */
const STOP_WORDS: ReadonlySet<string> = new Set(
  "a an the of to in on for by with and or from is are be me my i all any this that it its into as at".split(" "),
);

/** Abbreviations API names use for words that queries spell out: both sides fold to the short form. */
const ABBREVIATIONS: Readonly<Record<string, string>> = {
  repository: "repo", organization: "org", organisation: "org", configuration: "config", application: "app",
  information: "info", authentication: "auth", directory: "dir", environment: "env", parameter: "param",
  message: "msg", identifier: "id", administrator: "admin", reference: "ref", specification: "spec",
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
  else if (folded.length > 3 && folded.endsWith("s") && !folded.endsWith("ss") && !folded.endsWith("us")) folded = folded.slice(0, -1);
  // Own keys only: "constructor" or "__proto__" must not find Object.prototype members.
  return Object.prototype.hasOwnProperty.call(ABBREVIATIONS, folded) ? (ABBREVIATIONS[folded] as string) : folded;
}

/** The first sentence (or line) of a description, cut to `SEARCH_DESCRIPTION_MAX_CHARS`. */
export function summarise(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const sentence = firstSentence(description);
  if (sentence === "") return undefined;
  return sentence.length > SEARCH_DESCRIPTION_MAX_CHARS ? `${sentence.slice(0, SEARCH_DESCRIPTION_MAX_CHARS - 1)}…` : sentence;
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

/** A built index; immutable after creation. */
export interface SearchIndex {
  search(query: string, options?: { limit?: number }): SearchOutput;
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
  result: SearchResult;
  /** The unrounded score, for ranking. */
  rank: number;
}

function toResult(document: SearchDocument, score: number): RankedResult {
  const result: SearchResult = {
    path: document.path,
    connector: document.connector,
    method: document.method,
    kind: document.kind,
    score: displayScore(score),
  };
  const description = summarise(document.description);
  if (description !== undefined) result.description = description;
  return { result, rank: score };
}

function byScoreThenPath(a: RankedResult, b: RankedResult): number {
  return b.rank - a.rank || (a.result.path < b.result.path ? -1 : a.result.path > b.result.path ? 1 : 0);
}

/**
 * Builds the index. An empty query lists every entry (score 0, by path), so
 * `codemode.search("")` is a table of contents.
 */
export function createSearchIndex(documents: SearchDocument[]): SearchIndex {
  const byPath = new Map(documents.map((document) => [document.path, document]));
  const index = new MiniSearch<IndexedDocument>({
    fields: ["connector", "method", "summary", "description", "namespace", "params", "details"],
    storeFields: [],
    tokenize,
    processTerm: (term) => normaliseTerm(term.toLowerCase()),
    searchOptions: {
      boost: { summary: 4, method: 1.5, connector: 1, params: 0.5, description: 0.5, namespace: 0.3, details: 0.3 },
      prefix: (term) => term.length >= 3,
      fuzzy: (term) => (term.length >= 5 ? 0.2 : false),
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
  return {
    search(query, options) {
      const limit = clampLimit(options?.limit);
      const hits: RankedResult[] =
        query.trim() === ""
          ? documents.map((document) => toResult(document, 0))
          : index.search(query).flatMap((hit) => {
              const document = byPath.get(String(hit.id));
              return document === undefined ? [] : [toResult(document, hit.score)];
            });
      hits.sort(byScoreThenPath);
      return { results: hits.slice(0, limit).map((hit) => hit.result), total: hits.length, truncated: hits.length > limit };
    },
  };
}
