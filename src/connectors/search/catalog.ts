/**
 * The catalog behind `codemode.search` / `codemode.describe` (and the handle's
 * `runtime.search` / `runtime.describe`): one search index and lazily built,
 * cached declarations over the configured connectors and saved snippets.
 */
import { isRecord } from "../../shared/is-record.js";
import {
  connectorDeclaration,
  DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS,
  methodDeclaration,
  snippetDeclaration,
  type CatalogSnippet,
} from "../declarations.js";
import { createSearchIndex, summarise, type SearchDocument, type SearchOptions } from "./search-index.js";
import { embeddingText } from "./embedding-text.js";
import type { Connector, DescribeOutput, SearchOutput } from "../types.js";

export type { CatalogSnippet } from "../declarations.js";

/** Prefix of snippet paths in search and describe (`snippets.weekly_report`). */
const SNIPPETS_NAMESPACE = "snippets";

/** What `describe("modules")` names: the ES modules programs may import. */
const MODULES_TARGET = "modules";

/** An ES module programs may import (the runtime's `modules`): its specifier and, when given, its declaration. */
export interface CatalogModule {
  specifier: string;
  types?: string;
}

/** Exported names in a declaration, searched as parameter names (cheap: no TypeScript parse). */
function exportedNames(types: string | undefined): string[] {
  if (types === undefined) return [];
  const names = new Set<string>();
  for (const match of types.matchAll(
    /\bexport\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class|interface|type|namespace)\s+([A-Za-z_$][\w$]*)/g,
  )) {
    if (match[1] !== undefined) names.add(match[1]);
    if (names.size >= 200) break;
  }
  return [...names];
}

/** The leading JSDoc sentences of a declaration, searched as its description. */
function declarationDocs(types: string | undefined): string {
  if (types === undefined) return "";
  const docs = [...types.matchAll(/\/\*\*([\s\S]*?)\*\//g)]
    .slice(0, 50)
    .map((match) => (match[1] ?? "").replace(/^\s*\*\s?/gm, " "));
  return docs.join(" ").replace(/\s+/g, " ").trim().slice(0, 2_000);
}

/** `declare module "x" { … }` for describe: the app's declaration, or a note that it gave none. */
function moduleDeclaration(module: CatalogModule): string {
  const head = `declare module ${JSON.stringify(module.specifier)}`;
  if (module.types === undefined) {
    return `// No declaration was given for this module; import it and inspect its exports (Object.keys).\n${head};`;
  }
  const body = module.types.replace(/^(?=.)/gm, "  ");
  return `${head} {\n${body}\n}`;
}

/** Search and describe over a fixed set of connectors and snippets. */
export interface Catalog {
  /** Ranked paths (not schemas). An empty query lists everything. */
  search(query: string, options?: SearchOptions): SearchOutput;
  /** What each method and snippet is embedded as for semantic ranking (path → text), in catalog order. */
  embeddingTexts(): ReadonlyMap<string, string>;
  /** Whether the lexical ranking settles `query`: a blended search then neither embeds it nor reads vectors. */
  isLexicallyDecided(query: string): boolean;
  /**
   * Declarations for `connector`, `connector.method` or `snippets.name`; `{ error }` with suggestions otherwise.
   * The description is in `types`, as JSDoc, so the optional `description` field is left out (not said twice).
   */
  describe(target: string): DescribeOutput | { error: string };
}

/** Parameter names of a schema: top-level properties and one level below, for search. */
function parameterNames(schema: unknown): string[] {
  if (!isRecord(schema) || !isRecord(schema["properties"])) return [];
  const names: string[] = [];
  for (const [name, property] of Object.entries(schema["properties"])) {
    names.push(name);
    if (isRecord(property) && isRecord(property["properties"])) names.push(...Object.keys(property["properties"]));
  }
  return names;
}

/** Descriptions of parameters, appended to the searchable description. */
function parameterDescriptions(schema: unknown): string[] {
  if (!isRecord(schema) || !isRecord(schema["properties"])) return [];
  return Object.values(schema["properties"]).flatMap((property) =>
    isRecord(property) && typeof property["description"] === "string" ? [property["description"]] : [],
  );
}

/** A global function outside every namespace (the opt-in `fetch`), found by search and shown by describe under its own name. */
export interface CatalogGlobal {
  name: string;
  description: string;
  /** Its TypeScript declaration. */
  types: string;
  /** Words searched as parameter names. */
  params: string[];
}

function documentsOf(
  connectors: Record<string, Connector>,
  snippets: CatalogSnippet[],
  globals: CatalogGlobal[],
  modules: CatalogModule[],
): SearchDocument[] {
  const documents: SearchDocument[] = globals.map((global) => ({
    path: global.name,
    connector: global.name,
    method: global.name,
    kind: "method",
    params: global.params,
    description: global.description,
  }));
  for (const module of modules) {
    documents.push({
      path: module.specifier,
      connector: MODULES_TARGET,
      method: module.specifier,
      kind: "module",
      params: exportedNames(module.types),
      namespace: `ES module library import ${module.specifier.replace(/[^A-Za-z0-9]+/g, " ")}`,
      description: declarationDocs(module.types) || `ES module ${module.specifier} (import it by name)`,
    });
  }
  for (const [connectorName, connector] of Object.entries(connectors)) {
    // The connector's one-line summary (not its instructions): a weak, cheap signal shared by its methods.
    const namespaceText = summarise(connector.description) ?? "";
    for (const methodName of Object.keys(connector.methods)) {
      const method = connector.methods[methodName]!;
      const document: SearchDocument = {
        path: `${connectorName}.${methodName}`,
        connector: connectorName,
        method: methodName,
        kind: "method",
        params: parameterNames(method.inputSchema),
        namespace: namespaceText,
      };
      if (method.description !== undefined) document.description = method.description;
      const details = parameterDescriptions(method.inputSchema);
      if (details.length > 0) document.details = details.join(" ");
      documents.push(document);
    }
  }
  for (const snippet of snippets) {
    const document: SearchDocument = {
      path: `${SNIPPETS_NAMESPACE}.${snippet.name}`,
      connector: SNIPPETS_NAMESPACE,
      method: snippet.name,
      kind: "snippet",
      params: parameterNames(snippet.inputSchema),
      namespace: `saved snippet ${snippet.connectors.join(" ")}`,
    };
    if (snippet.description !== undefined) document.description = snippet.description;
    documents.push(document);
  }
  return documents;
}

/** Names echoed in a not-found message are cut to this many characters (the program controls them). */
const MAX_ECHOED_NAME_CHARS = 100;

function echoed(name: string): string {
  return name.length > MAX_ECHOED_NAME_CHARS ? `${name.slice(0, MAX_ECHOED_NAME_CHARS - 1)}…` : name;
}

/** Splits `github.create_issue` into connector and method; the method keeps any further dots. */
function splitTarget(target: string): { namespace: string; member?: string } {
  const trimmed = target.trim().replace(/\(.*\)?;?$/, "");
  const dot = trimmed.indexOf(".");
  return dot === -1 ? { namespace: trimmed } : { namespace: trimmed.slice(0, dot), member: trimmed.slice(dot + 1) };
}

/**
 * Creates the catalog. Declarations are built on first `describe` and cached;
 * the search index is built once, here.
 *
 * @example
 * const catalog = createCatalog({ connectors: { github }, snippets: [] });
 * catalog.search("open pull requests"); // { results: [{ path: "github.list_pull_requests", ... }], ... }
 * catalog.describe("github.list_pull_requests"); // { kind: "method", types: "declare const github: { list_pull_requests(input: { ... }): ... }" }
 */
export function createCatalog({
  connectors,
  snippets,
  globals = [],
  modules = [],
}: {
  connectors: Record<string, Connector>;
  snippets: CatalogSnippet[];
  /** Global functions outside the namespaces (e.g. the opt-in `fetch`). */
  globals?: CatalogGlobal[];
  /** ES modules programs may import (found by search; `describe("modules")` or by specifier). */
  modules?: CatalogModule[];
}): Catalog {
  const documents = documentsOf(connectors, snippets, globals, modules);
  const modulesBySpecifier = new Map(modules.map((module) => [module.specifier, module]));
  const index = createSearchIndex(documents);
  let texts: Map<string, string> | undefined;
  const snippetsByName = new Map(snippets.map((snippet) => [snippet.name, snippet]));
  const cache = new Map<string, DescribeOutput>();
  const has = (name: string): boolean => Object.hasOwn(connectors, name);

  function notFound(target: string, what: string): { error: string } {
    const suggestions = index.search(target, { limit: 3 }).results.map((result) => result.path);
    const namespaces = Object.keys(connectors);
    const parts = [
      `${what}.`,
      suggestions.length > 0 ? `Did you mean ${suggestions.join(", ")}?` : undefined,
      `Namespaces: ${namespaces.length > 0 ? namespaces.join(", ") : "(none)"}${snippets.length > 0 ? `, ${SNIPPETS_NAMESPACE}` : ""}.`,
      `Use codemode.search("...") to find methods.`,
    ];
    return { error: parts.filter((part) => part !== undefined).join(" ") };
  }

  function build(target: string): DescribeOutput | { error: string } {
    // A specifier may hold dots (`lodash.sortby`): matched whole, before the target is split.
    const module = has(target) ? undefined : modulesBySpecifier.get(target);
    if (module !== undefined) return { path: module.specifier, kind: "module", types: moduleDeclaration(module) };
    if (target === MODULES_TARGET && !has(target) && modules.length > 0) {
      return { path: MODULES_TARGET, kind: "module", types: modules.map(moduleDeclaration).join("\n\n") };
    }
    const { namespace, member } = splitTarget(target);
    const global =
      member === undefined && !has(namespace) ? globals.find((candidate) => candidate.name === namespace) : undefined;
    if (global !== undefined) return { path: global.name, kind: "method", types: global.types };
    if (namespace === SNIPPETS_NAMESPACE && member !== undefined && !has(namespace)) {
      const snippet = snippetsByName.get(member);
      if (snippet === undefined) return notFound(target, `No snippet named "${echoed(member)}"`);
      return { path: `${SNIPPETS_NAMESPACE}.${member}`, kind: "snippet", types: snippetDeclaration(snippet) };
    }
    if (!has(namespace)) return notFound(target, `No connector named "${echoed(namespace)}"`);
    const connector = connectors[namespace]!;
    if (member === undefined) {
      return {
        path: namespace,
        kind: "connector",
        types: connectorDeclaration(namespace, connector, DEFAULT_CONNECTOR_DECLARATION_MAX_CHARS),
      };
    }
    if (!Object.hasOwn(connector.methods, member)) {
      const skipped = connector.skipped?.find((entry) => entry.name === member);
      if (skipped !== undefined)
        return { error: `${namespace}.${member} cannot be called from a program: ${skipped.reason}.` };
      return notFound(target, `No method "${echoed(member)}" in ${namespace}`);
    }
    return {
      path: `${namespace}.${member}`,
      kind: "method",
      types: methodDeclaration(namespace, member, connector.methods[member]!, { instructions: connector.instructions }),
    };
  }

  return {
    search: (query, options) => index.search(typeof query === "string" ? query : String(query), options),
    isLexicallyDecided: (query) => index.isLexicallyDecided(typeof query === "string" ? query : String(query)),
    embeddingTexts: () => (texts ??= new Map(documents.map((document) => [document.path, embeddingText(document)]))),
    describe(target) {
      if (typeof target !== "string" || target.trim() === "") {
        return {
          error: `describe(target) needs a path such as "${Object.keys(connectors)[0] ?? "github"}" or "connector.method".`,
        };
      }
      const key = target.trim();
      const cached = cache.get(key);
      if (cached !== undefined) return cached;
      const output = build(key);
      if (!("error" in output)) cache.set(key, output);
      return output;
    },
  };
}
