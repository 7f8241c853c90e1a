/**
 * Which binding member a failed call named. QuickJS says only `TypeError: not a function`; its stack gives the
 * call's position (`program.js:LINE:COLUMN`, the column of the call's opening parenthesis). When the source just
 * before it is `namespace.member` or `namespace["member"]` and the namespace is a binding that has no such member,
 * the run's error names the member, the closest method and the methods that exist. Worked out only on that error,
 * from the script's text: a namespace stays a plain frozen object, and reading its members costs nothing more.
 */
import type { SessionBinding } from "../quickjs/session-types.js";

/**
 * `name.member`, `name?.member` or `name["member"]` at the end of the text before the call's parenthesis (an optional
 * call's `?.` too), where `name` is not itself a member of something (`a.name.member`).
 */
const CALLEE =
  /(?<![\w$]|\.\s*)([A-Za-z_$][\w$]*)\s*(?:\??\.\s*([A-Za-z_$][\w$]*)|(?:\?\.)?\s*\[\s*(["'])((?:(?!\3)[^\\\n])*)\3\s*\])\s*(?:\?\.\s*)?$/;

/** How much of the line before the parenthesis is read. */
const MAX_CALLEE_CHARS = 2_000;

/** The line and column of the first `program.js` frame of a stack (both from 1), if any. */
export function programCallSite(stack: string): { line: number; column: number } | undefined {
  const match = /program\.js:(\d+):(\d+)/.exec(stack);
  if (match === null) return undefined;
  return { line: Number(match[1]), column: Number(match[2]) };
}

/**
 * The binding (index into `bindings`) and member the call at `site` of `script` named, when that namespace does
 * not have that member.
 */
export function missingMemberAt(
  script: string,
  site: { line: number; column: number },
  bindings: readonly SessionBinding[],
): { ns: number; key: string } | undefined {
  const lines = script.split("\n");
  const line = lines[site.line - 1];
  if (line === undefined || site.column < 1) return undefined;
  // The callee ends at the parenthesis; a bounded tail of the line is enough to read it.
  const before = line.slice(Math.max(0, site.column - 1 - MAX_CALLEE_CHARS), site.column - 1);
  const match = CALLEE.exec(before);
  if (match === null) return undefined;
  const [, global, member, , quoted] = match;
  const key = member ?? quoted;
  const ns = bindings.findIndex((binding) => binding.global === global);
  const binding = bindings[ns];
  if (binding === undefined || key === undefined || binding.functions.includes(key)) return undefined;
  return { ns, key };
}
