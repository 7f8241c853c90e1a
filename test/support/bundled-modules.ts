/**
 * Real npm packages (lodash-es, date-fns, papaparse) bundled with esbuild into ES module text, the way an app turns
 * them into the runtime's `modules`. Bundled once per test file (each bundle takes a few hundred milliseconds).
 */
import { build } from "esbuild";

/** The entry of each module: what of the package it exports. */
const ENTRIES = {
  "lodash-es": 'export { groupBy, sortBy, chunk, uniq, sumBy, countBy } from "lodash-es";',
  "date-fns": 'export { format, addDays, differenceInCalendarDays, parseISO } from "date-fns";',
  papaparse: 'export { default } from "papaparse";',
} as const;

/** A specifier of the bundled packages. */
export type BundledPackage = keyof typeof ENTRIES;

/** Bundles `entry` (module text importing installed packages) into one self-contained ES module. */
export async function bundleModule(entry: string): Promise<string> {
  const result = await build({
    stdin: { contents: entry, resolveDir: process.cwd(), loader: "js" },
    bundle: true,
    format: "esm",
    // "browser": papaparse's Node build reaches for `stream`, which a sandbox has not.
    platform: "browser",
    minify: true,
    write: false,
    logLevel: "silent",
  });
  const [file] = result.outputFiles;
  if (file === undefined) throw new Error("esbuild produced no output");
  return file.text;
}

let bundled: Promise<Record<BundledPackage, string>> | undefined;

/** The three packages as module text, by specifier (bundled on first use, then shared by the file's tests). */
export function bundledPackages(): Promise<Record<BundledPackage, string>> {
  bundled ??= (async () => {
    const [lodash, dates, papaparse] = await Promise.all(Object.values(ENTRIES).map(bundleModule));
    return { "lodash-es": lodash as string, "date-fns": dates as string, papaparse: papaparse as string };
  })();
  return bundled;
}
