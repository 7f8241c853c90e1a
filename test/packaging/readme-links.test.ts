/**
 * The README as users get it, inside the packed tarball (`npm pack`): every relative link and image of
 * every Markdown file the package ships names a file (or folder) the package ships too, so nothing points
 * at a file left in the repository. Absolute links are not checked (no network in tests).
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize, resolve } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = resolve(import.meta.dirname, "../..");

/** The files `npm pack` puts in the tarball (dist/ is built by vitest's global setup; no prepack here). */
function packedFiles(): string[] {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "ignore"],
  });
  const [pack] = JSON.parse(output) as Array<{ files: Array<{ path: string }> }>;
  return (pack?.files ?? []).map((file) => file.path);
}

/** Relative targets of Markdown links and images (`[text](target)`, `![alt](target)`, `<img src="…">`). */
function relativeTargets(markdown: string): string[] {
  const targets = [
    ...[...markdown.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((match) => match[1] ?? ""),
    ...[...markdown.matchAll(/<img\s[^>]*src="([^"]+)"/g)].map((match) => match[1] ?? ""),
  ];
  return targets.filter((target) => target !== "" && !/^(?:[a-z][a-z0-9+.-]*:|#)/i.test(target));
}

describe("the packed package's documentation links", () => {
  const files = packedFiles();
  const shipped = (path: string) => files.includes(path) || files.some((file) => file.startsWith(`${path}/`));

  it("ships the README and what it shows", () => {
    expect(files).toContain("README.md");
    expect(files).toContain("docs/inspector.md");
    expect(files.filter((file) => file.endsWith(".png")).length).toBeGreaterThan(0);
  });

  it("every relative link of every shipped Markdown file resolves inside the tarball", () => {
    const broken: string[] = [];
    for (const file of files.filter((path) => path.endsWith(".md"))) {
      for (const target of relativeTargets(readFileSync(join(ROOT, file), "utf8"))) {
        const path = normalize(join(dirname(file), decodeURI(target.split("#")[0] ?? ""))).replace(/\/$/, "");
        if (path.startsWith("..") || !shipped(path)) broken.push(`${file}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });
});
