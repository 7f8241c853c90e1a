/**
 * Small pieces of TypeScript syntax shared by the declaration emitters:
 * property keys, identifiers from names, and JSDoc blocks.
 */
import { isRecord } from "../shared/is-record.js";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A property or method name as written in a type: bare if an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** `list_pull-requests` → `ListPullRequests`, safe as an identifier. */
export function pascalCase(text: string): string {
  const words = text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((word) => word !== "");
  const joined = words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join("");
  if (joined === "") return "Type";
  return /^[0-9]/.test(joined) ? `T${joined}` : joined;
}

/** Escapes text for a `/** ... *\/` comment. */
function commentText(text: string): string {
  return text.replace(/\*\//g, "*\\/").replace(/\r\n?/g, "\n").trim();
}

/**
 * A JSDoc block for `lines` at `indent`, or `""` when there is nothing to say.
 * One line renders as `/** text *\/`.
 */
export function jsDoc(lines: Array<string | undefined>, indent: string): string {
  const body = lines
    .filter((line): line is string => line !== undefined && line.trim() !== "")
    .flatMap((line) => commentText(line).split("\n"));
  if (body.length === 0) return "";
  if (body.length === 1) return `${indent}/** ${body[0]} */\n`;
  return `${indent}/**\n${body.map((line) => `${indent} *${line === "" ? "" : ` ${line}`}`).join("\n")}\n${indent} */\n`;
}

/** JSDoc lines for a schema: description, then `@default`, `@format`, `@deprecated`. */
export function schemaDocLines(schema: unknown): string[] {
  if (!isRecord(schema)) return [];
  const lines: string[] = [];
  if (typeof schema["title"] === "string" && typeof schema["description"] !== "string") lines.push(schema["title"]);
  if (typeof schema["description"] === "string") lines.push(schema["description"]);
  if (schema["default"] !== undefined) {
    const text = JSON.stringify(schema["default"]);
    if (text !== undefined && text.length <= 80) lines.push(`@default ${text}`);
  }
  if (typeof schema["format"] === "string") lines.push(`@format ${schema["format"]}`);
  if (schema["deprecated"] === true) lines.push("@deprecated");
  return lines;
}
