/**
 * Program normalisation: markdown fences, TypeScript stripping (sucrase), and the three program
 * forms (async arrow function, function body with top-level await/return, bare expression),
 * turned into one script whose completion value is the program's result. Line numbers of the
 * model's own source are preserved, so runtime errors and syntax errors point at its lines.
 */
import type { ModuleDeclaration, Node, Program, Statement } from "acorn";
import { hoistImports } from "./program-imports.js";

type Parse = typeof import("acorn").parse;
let acorn: Promise<Parse> | undefined;

/** acorn, imported at the first program (~7 ms at start-up, off the path of importing the package). */
function loadParser(): Promise<Parse> {
  acorn ??= import("acorn").then((module) => module.parse);
  return acorn;
}

/**
 * Starts importing acorn now (an executor does, when it is made), so a cold first run does not wait for it after the
 * store opened and the worker started: the import overlaps them. Every program is parsed, so nothing is loaded that a
 * plain JavaScript program does not need.
 */
export function preloadParser(): void {
  loadParser().catch(() => undefined);
}

/** A program ready for QuickJS, or a syntax error written for the model. */
export type NormalizedProgram = { ok: true; script: string } | { ok: false; message: string };

const FENCE = /^[ \t]*(`{3,}|~{3,})[^\n]*\n([\s\S]*?)\n?[ \t]*\1[ \t]*$/m;

/** Extracts the first fenced block, keeping the lines before it as blank lines so numbering is unchanged. */
function stripFence(source: string): string {
  const match = FENCE.exec(source);
  if (!match || match[2] === undefined) return source;
  const before = source.slice(0, match.index) + match[0].slice(0, match[0].indexOf("\n") + 1);
  return "\n".repeat(before.split("\n").length - 1) + match[2];
}

const ACORN_OPTIONS = {
  ecmaVersion: "latest",
  sourceType: "script",
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
} as const;

function syntaxMessage(error: unknown): string {
  const message = (error as { message?: unknown } | null)?.message;
  const text = typeof message === "string" ? message : String(error);
  const loc = (error as { loc?: { line?: unknown; column?: unknown } }).loc;
  const base = text.replace(/\s*\(\d+:\d+\)\s*$/, "");
  if (loc && typeof loc.line === "number" && typeof loc.column === "number") {
    return `SyntaxError: ${base} (line ${loc.line}, column ${loc.column + 1})`;
  }
  return `SyntaxError: ${base}`;
}

type Sucrase = typeof import("sucrase");
let sucrase: Promise<Sucrase> | undefined;

type Converted = { ok: true; code: string; program: Program; prelude: string } | { ok: false; message: string };

/** `code` (which does not parse as a script) with its static imports hoisted; undefined when that does not parse either. */
function hoistedProgram(parse: Parse, code: string): Extract<Converted, { ok: true }> | undefined {
  const hoisted = hoistImports(parse, code);
  if (hoisted === undefined) return undefined;
  try {
    return { ok: true, code: hoisted.code, program: parse(hoisted.code, ACORN_OPTIONS), prelude: hoisted.prelude };
  } catch {
    return undefined;
  }
}

/** Strips TypeScript if the source is not already plain JavaScript (sucrase loads on first need: it costs ~60 ms at start-up). */
async function toJavaScript(parse: Parse, source: string): Promise<Converted> {
  let firstError: unknown;
  try {
    return { ok: true, code: source, program: parse(source, ACORN_OPTIONS), prelude: "" };
  } catch (error) {
    firstError = error;
  }
  const withImports = hoistedProgram(parse, source);
  if (withImports !== undefined) return withImports;
  sucrase ??= import("sucrase");
  const { transform } = await sucrase;
  let code: string;
  try {
    code = transform(source, { transforms: ["typescript"], disableESTransforms: true }).code;
  } catch (error) {
    // sucrase columns are 1-based; normalise to acorn's 0-based before formatting.
    const loc = (error as { loc?: { line: number; column: number } }).loc;
    if (loc)
      return {
        ok: false,
        message: syntaxMessage({ message: (error as Error).message, loc: { line: loc.line, column: loc.column - 1 } }),
      };
    return { ok: false, message: syntaxMessage(firstError) };
  }
  try {
    return { ok: true, code, program: parse(code, ACORN_OPTIONS), prelude: "" };
  } catch {
    return hoistedProgram(parse, code) ?? { ok: false, message: syntaxMessage(firstError) };
  }
}

function isFunctionNode(node: Node): boolean {
  return node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression";
}

/** True when the source is exactly one expression (so `{ a: 1 }` is an object, not a block). */
function asExpression(parse: Parse, code: string): Node | undefined {
  try {
    const program = parse(`(${code}\n)`, {
      ecmaVersion: "latest",
      sourceType: "script",
      allowAwaitOutsideFunction: true,
    });
    const [statement] = program.body;
    if (program.body.length === 1 && statement?.type === "ExpressionStatement") return statement.expression;
  } catch {
    return undefined;
  }
  return undefined;
}

/**
 * The expression of a program that is one expression statement with nothing after it (no `;`, no comment): parsing
 * it again as `(code)` would give the same expression, so the second parse is skipped.
 */
function soleExpression(program: Program, code: string): Node | undefined {
  const [statement] = program.body;
  if (program.body.length !== 1 || statement?.type !== "ExpressionStatement") return undefined;
  if (code.charCodeAt(statement.end - 1) === 59 /* ; */ || code.slice(statement.end).trim() !== "") return undefined;
  return statement.expression;
}

function hasTopLevelReturn(statements: Array<Statement | ModuleDeclaration>): boolean {
  let found = false;
  const visit = (node: unknown): void => {
    if (found || node === null || typeof node !== "object") return;
    const type = (node as { type?: unknown }).type;
    if (type === "ReturnStatement") {
      found = true;
      return;
    }
    if (
      type === "FunctionDeclaration" ||
      type === "FunctionExpression" ||
      type === "ArrowFunctionExpression" ||
      type === "ClassBody"
    )
      return;
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(visit);
      else if (value !== null && typeof value === "object" && typeof (value as { type?: unknown }).type === "string")
        visit(value);
    }
  };
  statements.forEach(visit);
  return found;
}

/**
 * Turns the model's source into a script for QuickJS whose completion value is the program's
 * result (possibly a promise). Syntax errors carry line and column in the model's own source.
 */
export async function normalizeProgram(source: string): Promise<NormalizedProgram> {
  const unfenced = stripFence(source);
  const parse = await loadParser();
  const converted = await toJavaScript(parse, unfenced);
  if (!converted.ok) return converted;
  const { code, program, prelude } = converted;
  const expression = soleExpression(program, code) ?? asExpression(parse, code);
  if (expression !== undefined) {
    // An async arrow / function is called; any other expression is the result.
    if (prelude !== "") {
      const call = isFunctionNode(expression) ? "()" : "";
      return { ok: true, script: `(async () => {${prelude} return (${code}\n)${call};})()` };
    }
    return { ok: true, script: isFunctionNode(expression) ? `(${code}\n)()` : `(async () => (${code}\n))()` };
  }
  const body = program.body;
  const last = body[body.length - 1];
  if (last?.type === "ExpressionStatement" && !hasTopLevelReturn(body)) {
    // A body without `return` yields its last expression, as a REPL would.
    const start = last.start;
    return { ok: true, script: `(async () => {${prelude}${code.slice(0, start)}return ${code.slice(start)}\n})()` };
  }
  return { ok: true, script: `(async () => {${prelude}${code}\n})()` };
}
