/**
 * Reads the ES modules a CLI-started runtime gives its programs from files: a `modules` entry of a proxy config, or
 * the `--modules <modules.json>` file (specifier → module file, or `{ source, types }` files). Paths are relative
 * to the file that names them. The runtime itself checks names and sizes.
 */
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { CliError } from "../errors/cli-error.js";
import { parseModuleFiles, type ModuleFiles } from "../mcp/proxy/proxy-config.js";
import type { ModulesOption } from "../runtime/modules-option.js";
import { messageOf } from "../shared/message-of.js";

function readText(path: string, label: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new CliError({ message: `${label}: cannot read ${path} (${messageOf(error)}).`, cause: error });
  }
}

/** The modules named by `files`, read relative to `baseDir`; `label` names where they were listed (for errors). */
export function readModuleFiles(files: ModuleFiles, baseDir: string, label: string): ModulesOption {
  const modules: ModulesOption = {};
  for (const [specifier, entry] of Object.entries(files)) {
    const at = `${label} modules[${JSON.stringify(specifier)}]`;
    if (typeof entry === "string") {
      modules[specifier] = readText(resolve(baseDir, entry), at);
      continue;
    }
    const source = readText(resolve(baseDir, entry.source), at);
    modules[specifier] =
      entry.types === undefined
        ? { source }
        : { source, types: readText(resolve(baseDir, entry.types), `${at}.types`) };
  }
  return modules;
}

/** The modules of a `--modules <modules.json>` file (relative to `cwd`). */
export function readModulesFlag(file: string, cwd: string): ModulesOption {
  const path = resolve(cwd, file);
  let value: unknown;
  try {
    value = JSON.parse(readText(path, `--modules ${file}`));
  } catch (error) {
    if (CliError.isInstance(error)) throw error;
    throw new CliError({ message: `--modules ${file}: ${path} is not JSON (${messageOf(error)}).`, cause: error });
  }
  return readModuleFiles(parseModuleFiles(value, `--modules ${file}`), dirname(path), `--modules ${file}`);
}
