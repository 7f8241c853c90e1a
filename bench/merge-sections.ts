/**
 * A partial benchmark run (`npm run bench -- search`) rewrites only its own sections of `bench/RESULTS.md`:
 * the other sections keep their last full results instead of being dropped.
 */

/**
 * `previous` with each `## Title` section of `fresh` replaced (or appended), each under
 * `note` (when and where that section was run alone).
 */
export function mergeSections(previous: string, fresh: string[], note: string): string {
  const [head = "", ...kept] = previous.split(/\n(?=## )/);
  const titleOf = (section: string): string => section.split("\n", 1)[0] ?? "";
  const byTitle = new Map(kept.map((section) => [titleOf(section), section.trimEnd()]));
  for (const section of fresh) {
    const [title = "", ...body] = section.trimEnd().split("\n");
    byTitle.set(title, [title, "", note, ...body].join("\n"));
  }
  return `${head.trimEnd()}\n\n${[...byTitle.values()].join("\n\n")}\n`;
}
