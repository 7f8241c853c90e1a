/**
 * The catalog behind `codemode.search` / `codemode.describe` and the handle's `search` / `describe`: the
 * configured connectors plus the saved snippets, rebuilt only when the snippet set changes.
 */
import { createCatalog, type Catalog, type CatalogGlobal } from "../connectors/catalog.js";
import type { Connector } from "../connectors/types.js";
import type { SnippetRecord } from "./store/records.js";

/** Returns the catalog for a snippet set, cached for the last set seen. */
export type CatalogCache = (snippets: SnippetRecord[]) => Catalog;

/** A cache over `connectors` (the namespaces the model sees) and `globals` (e.g. `fetch`). */
export function createCatalogCache(connectors: Record<string, Connector>, globals: CatalogGlobal[]): CatalogCache {
  let cached: { key: string; catalog: Catalog } | undefined;
  return (snippets) => {
    const key = JSON.stringify(snippets);
    if (cached?.key !== key) {
      const entries = snippets.map((snippet) => ({
        name: snippet.name,
        code: snippet.code,
        connectors: snippet.connectors,
        ...(snippet.description === undefined ? {} : { description: snippet.description }),
        ...(snippet.inputSchemaText === undefined
          ? {}
          : { inputSchema: JSON.parse(snippet.inputSchemaText) as unknown }),
      }));
      cached = { key, catalog: createCatalog({ connectors, globals, snippets: entries }) };
    }
    return cached.catalog;
  };
}
