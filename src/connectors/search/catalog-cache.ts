/**
 * The catalog behind `codemode.search` / `codemode.describe` and the handle's `search` / `describe`: the
 * configured connectors plus the saved snippets, rebuilt only when the snippet set changes.
 */
import { createCatalog, type Catalog, type CatalogGlobal, type CatalogModule } from "./catalog.js";
import type { Connector } from "../types.js";

/** Returns the catalog for a snippet set, cached for the last set seen. */
export type CatalogCache = (snippets: SavedSnippet[]) => Catalog;

/** A saved snippet as the store keeps it (the runtime's `SnippetRecord` is one): its input schema as JSON text. */
interface SavedSnippet {
  name: string;
  code: string;
  connectors: string[];
  description?: string;
  inputSchemaText?: string;
}

/** A cache over `connectors` (the namespaces the model sees), `globals` (e.g. `fetch`) and the importable `modules`. */
export function createCatalogCache(
  connectors: Record<string, Connector>,
  globals: CatalogGlobal[],
  modules: CatalogModule[] = [],
): CatalogCache {
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
      cached = { key, catalog: createCatalog({ connectors, globals, modules, snippets: entries }) };
    }
    return cached.catalog;
  };
}
