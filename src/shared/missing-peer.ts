/**
 * Optional peer dependencies loaded by `import()`: when one is not installed, Node's error names a hashed chunk of
 * ours and the package deep in its text. These helpers tell that case apart from any other failure to load, so the
 * message can name the package once and the command that installs it.
 */

/** The package `error` says cannot be found, if it is one of `packages` (`ERR_MODULE_NOT_FOUND`). */
export function missingPackage(error: unknown, packages: readonly string[]): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" || typeof message !== "string") return undefined;
  return packages.find((name) => message.includes(`'${name}'`) || message.includes(`'${name}/`));
}

/** "needs X and Y, not installed here: npm install X Y" — each package named once. */
export function missingPeersMessage(what: string, missing: readonly string[]): string {
  const names = missing.length === 1 ? missing[0] : `${missing.slice(0, -1).join(", ")} and ${missing.at(-1)}`;
  const verb = missing.length === 1 ? "is" : "are";
  return `${what} needs ${names}, which ${verb} not installed: npm install ${missing.join(" ")}`;
}
