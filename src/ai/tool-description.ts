/**
 * The `codemode` tool's description: what the model reads before its first
 * call. It names each namespace with a one-line hint, teaches
 * search → describe → call, explains the statuses (especially `paused`) and
 * says there is no network (or, with the runtime's `outbound` option, which
 * origins `fetch` reaches). It stays under ~1,000 tokens whatever the number of
 * tools: namespaces beyond the budget are counted, not listed, and full
 * declarations are inlined only when they fit. As a tool caller, the tool keeps
 * a fixed description and the namespaces go into an announcement message.
 */
import { fullConnectorDeclaration } from "../connectors/declarations.js";
import { normaliseTerm, tokenize } from "../connectors/search/search-index.js";
import type { Connector } from "../connectors/types.js";
import { firstSentence } from "../shared/first-sentence.js";

/** Characters of the whole description (≈ 4 characters per o200k token, so ≈ 900 tokens). */
const DEFAULT_DESCRIPTION_MAX_CHARS = 3600;
/** A namespace hint is cut to this many characters. */
const NAMESPACE_HINT_MAX_CHARS = 90;
/** How many method names a hint lists when the connector has no description. */
const HINT_METHOD_NAMES = 3;

/** When to put full TypeScript declarations into the description. */
export type InlineTypes = "auto" | boolean;

function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Up to `count` method names that show a namespace's range: in order, each one
 * sharing no word with those already picked (`list_customer, get_invoice,
 * create_ticket` rather than `list_customer, get_customer, create_customer`),
 * then the first of the rest.
 */
export function representativeMethods(methods: string[], count: number): string[] {
  const words = (method: string): string[] => tokenize(method).flatMap((word) => normaliseTerm(word) ?? []);
  const seen = new Set<string>();
  const picked: string[] = [];
  for (const method of methods) {
    if (picked.length === count) break;
    const own = words(method);
    if (own.some((word) => seen.has(word))) continue;
    picked.push(method);
    for (const word of own) seen.add(word);
  }
  for (const method of methods) {
    if (picked.length === count) break;
    if (!picked.includes(method)) picked.push(method);
  }
  return methods.filter((method) => picked.includes(method));
}

/** `github: GitHub issues and pull requests (12 methods)` or, without a description, a few method names. */
export function namespaceHint(name: string, connector: Connector): string {
  const methods = Object.keys(connector.methods);
  const count = `${methods.length} method${methods.length === 1 ? "" : "s"}`;
  const description = connector.description === undefined ? "" : firstSentence(connector.description);
  if (description !== "") return `- ${name}: ${clip(description, NAMESPACE_HINT_MAX_CHARS)} (${count})`;
  const shown = representativeMethods(methods, HINT_METHOD_NAMES).join(", ");
  const more = methods.length > HINT_METHOD_NAMES ? ", …" : "";
  return `- ${name}: ${clip(`${shown}${more}`, NAMESPACE_HINT_MAX_CHARS)} (${count})`;
}

const INTRO = "Runs JavaScript/TypeScript in a sandbox. Namespaces are globals of async methods taking one object:";

function example(first: string | undefined): string {
  const namespace = first ?? "ns";
  return [
    "Typical flow, one call each; the code's value is the result:",
    `1. codemode.search("what you need") // ranked paths of methods and saved snippets`,
    `2. codemode.describe("${namespace}.method") // exact TypeScript types (or a whole namespace)`,
    `3. async () => { const r = await ${namespace}.method({ ... }); return r.id; } // batch calls; return only what you need`,
  ].join("\n");
}

/** Longest list of allowed origins quoted in the description. */
const FETCH_ORIGINS_MAX_CHARS = 160;

/** Longest list of module names quoted in the description. */
const MODULE_NAMES_MAX_CHARS = 200;

/** The one line naming the modules programs may import (none: no line, the description is unchanged). */
function modulesLine(modules: readonly string[] | undefined): string {
  if (modules === undefined || modules.length === 0) return "";
  const names = clip(modules.join(", "), MODULE_NAMES_MAX_CHARS);
  return `\nModules (import { x } from "name", or await import("name"); types: codemode.describe("modules")): ${names}. Nothing else is importable.`;
}

function rules(fetchOrigins: string | undefined, modules?: readonly string[]): string {
  const reach =
    fetchOrigins === undefined
      ? " No fetch, require, process or timers."
      : `\nfetch(url, init?) works like the web fetch for ${clip(fetchOrigins, FETCH_ORIGINS_MAX_CHARS)} only (sent by the host, recorded; codemode.describe("fetch")). No require, process or timers.`;
  return [
    `codemode.run(name, input) runs a saved snippet; codemode.step(name, fn) records a value once; console.log → logs.${reach}${modulesLine(modules)}`,
    "Status error: fix the code and retry. paused: a call awaits human approval; tell the user, don't retry or work around it; once approved, it resumes without repeating calls.",
  ].join("\n");
}

/** Options of `buildToolDescription`. */
export interface ToolDescriptionOptions {
  connectors: Record<string, Connector>;
  /** @default "auto" */
  inlineTypes?: InlineTypes;
  /** Extra text appended (the app's own guidance). */
  instructions?: string;
  /** @default DEFAULT_DESCRIPTION_MAX_CHARS */
  maxChars?: number;
  /** The origins programs may `fetch` (the runtime's `outbound` option), e.g. "https://api.example.com"; without it, there is no fetch. */
  fetchOrigins?: string;
  /** Specifiers of the modules programs may import (the runtime's `modules`), named in one line. */
  modules?: readonly string[];
}

/** Namespace lines that fit in `budget` characters; the rest are counted in a final line. */
function namespaceLines(connectors: Record<string, Connector>, budget: number): string[] {
  const names = Object.keys(connectors);
  if (names.length === 0) return ["(no namespaces configured)"];
  const lines: string[] = [];
  let used = 0;
  for (const [index, name] of names.entries()) {
    const line = namespaceHint(name, connectors[name]!);
    const rest = names.length - index - 1;
    const reserve = rest > 0 ? 80 : 0;
    if (used + line.length + 1 + reserve > budget) {
      const hidden = names.slice(index);
      lines.push(
        `- …and ${hidden.length} more namespaces (${clip(hidden.join(", "), 120)}); find their methods with codemode.search`,
      );
      break;
    }
    lines.push(line);
    used += line.length + 1;
  }
  return lines;
}

/**
 * Builds the description. With `inlineTypes: "auto"` the connectors' full
 * declarations are appended when the whole description still fits in
 * `maxChars`; `true` always appends them; `false` never does.
 */
export function buildToolDescription({
  connectors,
  inlineTypes = "auto",
  instructions,
  maxChars = DEFAULT_DESCRIPTION_MAX_CHARS,
  fetchOrigins,
  modules,
}: ToolDescriptionOptions): string {
  const names = Object.keys(connectors);
  const rulesText = rules(fetchOrigins, modules);
  const tail = instructions === undefined || instructions.trim() === "" ? "" : `\n${instructions.trim()}`;
  const fixed = `${INTRO}\n\n${example(names[0])}\n${rulesText}${tail}`;
  const listBudget = Math.max(200, maxChars - fixed.length - 2);
  const base = `${INTRO}\n${namespaceLines(connectors, listBudget).join("\n")}\n\n${example(names[0])}\n${rulesText}${tail}`;
  return withDeclarations({ text: base, connectors, inlineTypes, maxChars });
}

/**
 * `text` followed by the connectors' full declarations when `inlineTypes` allows them: `true` always, `"auto"` when
 * the whole text still fits in `maxChars`, `false` never (nor when there are no connectors).
 */
function withDeclarations({
  text,
  connectors,
  inlineTypes,
  maxChars,
}: {
  text: string;
  connectors: Record<string, Connector>;
  inlineTypes: InlineTypes;
  maxChars: number;
}): string {
  const names = Object.keys(connectors);
  if (inlineTypes === false || names.length === 0) return text;
  const heading = "\n\nDeclarations (no need to describe these):\n```ts\n";
  let budget = inlineTypes === true ? Number.POSITIVE_INFINITY : maxChars - text.length - heading.length - 4;
  const declarations: string[] = [];
  for (const name of names) {
    const declaration = fullConnectorDeclaration(name, connectors[name]!, budget);
    if (declaration === undefined) return text;
    declarations.push(declaration);
    budget -= declaration.length + 1;
  }
  return `${text}${heading}${declarations.join("\n")}\n\`\`\``;
}

/** The first words of the message that announces a tool caller's namespaces (see {@link buildNamespaceAnnouncement}). */
export const NAMESPACE_ANNOUNCEMENT_HEADING = "Code Mode namespaces";

const CALLER_INTRO =
  "Runs JavaScript/TypeScript in a sandbox. Namespaces are globals of async methods taking one object; " +
  `they are listed in a message of the conversation that starts "${NAMESPACE_ANNOUNCEMENT_HEADING}" ` +
  "(`tools` holds the app's tools routed to this tool).";

/**
 * The description of the codemode tool as an AI SDK tool caller: the same for every request and every
 * tool set, so that a provider's prompt cache keeps the tool definitions. What varies (the namespaces and their
 * methods) is in {@link buildNamespaceAnnouncement}, which the AI SDK adds to the conversation as a message.
 */
export function buildCallerToolDescription({
  instructions,
  fetchOrigins,
}: Pick<ToolDescriptionOptions, "instructions" | "fetchOrigins">): string {
  const tail = instructions === undefined || instructions.trim() === "" ? "" : `\n${instructions.trim()}`;
  return `${CALLER_INTRO}\n\n${example("tools")}\n${rules(fetchOrigins)}${tail}`;
}

/**
 * The message a tool caller's `prepareModelMessage` returns: each namespace with a hint (within `maxChars`, the rest
 * counted), then, as `inlineTypes` allows, their full declarations.
 */
export function buildNamespaceAnnouncement({
  connectors,
  inlineTypes = "auto",
  maxChars = DEFAULT_DESCRIPTION_MAX_CHARS,
}: Pick<ToolDescriptionOptions, "connectors" | "inlineTypes" | "maxChars">): string {
  const heading = `${NAMESPACE_ANNOUNCEMENT_HEADING} of the codemode tool (find methods with codemode.search, exact types with codemode.describe):`;
  if (Object.keys(connectors).length === 0) {
    return `${heading}\n(none: no tools are routed to it; codemode.search still finds saved snippets)`;
  }
  const text = `${heading}\n${namespaceLines(connectors, Math.max(200, maxChars - heading.length - 1)).join("\n")}`;
  return withDeclarations({ text, connectors, inlineTypes, maxChars });
}
