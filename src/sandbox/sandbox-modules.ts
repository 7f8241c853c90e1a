/**
 * The module loader of one run: a program (or a module) can import only the modules the app gave, by their exact
 * specifier; anything else (`fs`, `node:*`, a URL, a relative path) fails with a message listing what is available.
 * Modules are instantiated in the run's own context, so each run gets fresh instances with the program's powers and
 * no more. QuickJS keeps no compiled module across contexts (and the wasm build exposes no bytecode), so a module is
 * parsed once per run that imports it.
 */
import type { QuickJSRuntime } from "quickjs-emscripten-core";

/**
 * A cheap test for whether a normalised program could import anything (false positives only cost sending the
 * sources): it mentions `import`, or `codemode` (a saved snippet it runs may import).
 */
export function mayImport(script: string): boolean {
  return script.includes("import") || script.includes("codemode");
}

/** The message a program reads when it imports what the app did not give. */
function unknownModuleMessage(specifier: string, available: readonly string[], withheld: readonly string[]): string {
  const what = JSON.stringify(specifier.length > 200 ? `${specifier.slice(0, 200)}…` : specifier);
  if (withheld.length > 0) {
    const listed = withheld.map((name) => JSON.stringify(name)).join(", ");
    return (
      `Cannot import ${what}: an import built while the program runs (through eval, new Function or a computed ` +
      "string) is not supported; only the imports written in the program's own text load. Write " +
      `import { … } from "name" or await import("name") in the program itself. The app's modules: ${listed}.`
    );
  }
  if (available.length === 0) {
    return `Cannot import ${what}: no modules are available in this sandbox (there are no Node.js built-ins, files or URLs to import either).`;
  }
  return (
    `Cannot import ${what}: only the modules this app provides can be imported: ${available.map((name) => JSON.stringify(name)).join(", ")}. ` +
    "There are no Node.js built-ins, files or URLs; import one of these by its exact name."
  );
}

/**
 * Lets `runtime` load `modules` (specifier → ES module source) for the run about to start; `onLoad` hears each
 * specifier as it is loaded. Specifiers are taken as written (no relative resolution), so `./x` is simply unknown.
 * `withheldModules`: the app's modules this run was not sent (its text never says `import`), named in the message.
 */
export function installModuleLoader(
  runtime: QuickJSRuntime,
  {
    modules,
    withheldModules = [],
  }: {
    modules?: Readonly<Record<string, string>> | undefined;
    withheldModules?: readonly string[] | undefined;
  },
  onLoad: (specifier: string) => void,
): void {
  // A Map: a specifier such as `__proto__` or `constructor` must not reach an object's prototype.
  const sources = new Map(modules === undefined ? [] : Object.entries(modules));
  runtime.setModuleLoader(
    (specifier) => {
      const source = sources.get(specifier);
      if (source === undefined)
        return { error: new Error(unknownModuleMessage(specifier, [...sources.keys()], withheldModules)) };
      onLoad(specifier);
      return source;
    },
    (_base, requested) => requested,
  );
}
