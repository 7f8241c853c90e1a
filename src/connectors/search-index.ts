/**
 * Ranked lexical search (BM25 via `minisearch`) over connector methods and
 * snippets: names split on `_`, `-`, `.` and camelCase, descriptions and
 * parameter names. Order is deterministic: score, then path.
 */
import MiniSearch from "minisearch";
import type { SearchOutput, SearchResult } from "./types.js";

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

/** A light, deterministic plural folding: `issues` → `issue`, `repositories` → `repository`. */
export function normaliseTerm(term: string): string {
  if (term.length > 4 && term.endsWith("ies")) return `${term.slice(0, -3)}y`;
  if (term.length > 3 && term.endsWith("s") && !term.endsWith("ss") && !term.endsWith("us")) return term.slice(0, -1);
  return term;
}

/** The first sentence (or line) of a description, cut to `SEARCH_DESCRIPTION_MAX_CHARS`. */
export function summarise(description: string | undefined): string | undefined {
  if (description === undefined) return undefined;
  const firstLine = description.trim().split(/\r?\n/)[0] ?? "";
  const sentence = /^(.+?[.!?])(\s|$)/.exec(firstLine)?.[1] ?? firstLine;
  if (sentence === "") return undefined;
  return sentence.length > SEARCH_DESCRIPTION_MAX_CHARS ? `${sentence.slice(0, SEARCH_DESCRIPTION_MAX_CHARS - 1)}…` : sentence;
}

interface IndexedDocument {
  id: string;
  connector: string;
  method: string;
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

function toResult(document: SearchDocument, score: number): SearchResult {
  const result: SearchResult = {
    path: document.path,
    connector: document.connector,
    method: document.method,
    kind: document.kind,
    score: Math.round(score * 100) / 100,
  };
  const description = summarise(document.description);
  if (description !== undefined) result.description = description;
  return result;
}

function byScoreThenPath(a: SearchResult, b: SearchResult): number {
  return b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
}

/**
 * Builds the index. An empty query lists every entry (score 0, by path), so
 * `codemode.search("")` is a table of contents.
 */
export function createSearchIndex(documents: SearchDocument[]): SearchIndex {
  const byPath = new Map(documents.map((document) => [document.path, document]));
  const index = new MiniSearch<IndexedDocument>({
    fields: ["connector", "method", "description", "namespace", "params", "details"],
    storeFields: [],
    tokenize,
    processTerm: (term) => normaliseTerm(term.toLowerCase()),
    searchOptions: {
      boost: { method: 3, connector: 2, params: 1.5, description: 1, namespace: 0.5, details: 0.5 },
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
      description: document.description ?? "",
      namespace: document.namespace ?? "",
      params: document.params.join(" "),
      details: document.details ?? "",
    })),
  );
  return {
    search(query, options) {
      const limit = clampLimit(options?.limit);
      const hits: SearchResult[] =
        query.trim() === ""
          ? documents.map((document) => toResult(document, 0))
          : index.search(query).flatMap((hit) => {
              const document = byPath.get(String(hit.id));
              return document === undefined ? [] : [toResult(document, hit.score)];
            });
      hits.sort(byScoreThenPath);
      return { results: hits.slice(0, limit), total: hits.length, truncated: hits.length > limit };
    },
  };
}
