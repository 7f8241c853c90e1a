/**
 * Static `import` declarations in a program. A program runs as a script (its completion value is its result), where
 * `import … from` is a syntax error, so each declaration becomes an awaited dynamic `import()` run at the start of the
 * program: the declarations are blanked in place (line numbers unchanged) and their replacements returned apart.
 */
import type { ImportDeclaration, Node, Program } from "acorn";

type Parse = typeof import("acorn").parse;

/** The program with its import declarations blanked, and the statements that replace them (one line). */
export interface HoistedImports {
  code: string;
  prelude: string;
}

const MODULE_OPTIONS = {
  ecmaVersion: "latest",
  sourceType: "module",
  allowAwaitOutsideFunction: true,
  allowReturnOutsideFunction: true,
} as const;

function nameOf(node: Node): string {
  return node.type === "Identifier" ? (node as unknown as { name: string }).name : "";
}

/** `import a, { b as c, "d-e" as f } from "m"` → the awaited statements that bind the same names. */
function replacement(declaration: ImportDeclaration): string {
  const source = JSON.stringify(declaration.source.value);
  const load = `await import(${source})`;
  let namespace: string | undefined;
  const bindings: string[] = [];
  for (const specifier of declaration.specifiers) {
    const local = specifier.local.name;
    if (specifier.type === "ImportNamespaceSpecifier") namespace = local;
    else if (specifier.type === "ImportDefaultSpecifier") bindings.push(`default: ${local}`);
    else {
      const imported = specifier.imported;
      const key = imported.type === "Identifier" ? nameOf(imported) : JSON.stringify(imported.value);
      bindings.push(`${key}: ${local}`);
    }
  }
  if (namespace === undefined && bindings.length === 0) return `${load};`;
  if (namespace === undefined) return `const { ${bindings.join(", ")} } = ${load};`;
  const rest = bindings.length === 0 ? "" : ` const { ${bindings.join(", ")} } = ${namespace};`;
  return `const ${namespace} = ${load};${rest}`;
}

/** Spaces in place of the text, newlines kept, so everything after it keeps its line and column. */
function blank(text: string): string {
  return text.replace(/[^\n]/g, " ");
}

/**
 * The program's static imports hoisted out, or undefined when it has none (or does not parse as a module either:
 * the caller reports the script's own syntax error).
 */
export function hoistImports(parse: Parse, code: string): HoistedImports | undefined {
  if (!code.includes("import")) return undefined;
  let program: Program;
  try {
    program = parse(code, MODULE_OPTIONS);
  } catch {
    return undefined;
  }
  const declarations = program.body.filter((node): node is ImportDeclaration => node.type === "ImportDeclaration");
  if (declarations.length === 0) return undefined;
  let blanked = "";
  let at = 0;
  for (const declaration of declarations) {
    blanked += code.slice(at, declaration.start) + blank(code.slice(declaration.start, declaration.end));
    at = declaration.end;
  }
  blanked += code.slice(at);
  return { code: blanked, prelude: declarations.map(replacement).join(" ") };
}
