/**
 * `openApiConnector` build cost: parsing, `$ref` resolution and schema bundling for a
 * small YAML document (the test issue tracker) and GitHub's REST description
 * (`@octokit/openapi`, ~13 MB of JSON), plus the cost of rendering every method's
 * TypeScript declarations. Medians of several runs in one process.
 *
 * Run: `node --import tsx bench/openapi.ts` (or through `bench/index.ts`).
 */
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { connectorDeclaration } from "../src/connectors/declarations.js";
import { openApiConnector } from "../src/connectors/openapi/openapi-connector.js";
import type { Connector } from "../src/connectors/types.js";
import { githubOpenApiText } from "../test/connectors/fixtures/github-openapi.js";

const RUNS = 5;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

async function timed<T>(fn: () => Promise<T> | T): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: performance.now() - started };
}

interface Row {
  label: string;
  megabytes: number;
  methods: number;
  buildMs: number;
  /** The first build in the process (cold JIT), which is what a serverless cold start pays. */
  firstBuildMs: number;
  declarationsMs: number;
  declarationChars: number;
}

async function measure(label: string, text: string, baseUrl: string | undefined): Promise<Row> {
  const builds: number[] = [];
  const renders: number[] = [];
  let connector: Connector | undefined;
  let declarationChars = 0;
  for (let run = 0; run < RUNS; run++) {
    const built = await timed(() => openApiConnector(baseUrl === undefined ? { spec: text } : { spec: text, baseUrl }));
    builds.push(built.ms);
    connector = built.value;
    const rendered = await timed(() => connectorDeclaration("api", built.value));
    renders.push(rendered.ms);
    declarationChars = rendered.value.length;
  }
  return {
    label,
    megabytes: text.length / 1e6,
    methods: Object.keys(connector!.methods).length,
    buildMs: median(builds),
    firstBuildMs: builds[0]!,
    declarationsMs: median(renders),
    declarationChars,
  };
}

/** The markdown section of this suite. */
export async function run(): Promise<string> {
  const github = githubOpenApiText();
  const tracker = readFileSync(
    new URL("../test/connectors/openapi/fixtures/issue-tracker.yaml", import.meta.url),
    "utf8",
  );
  const rows = [
    await measure("issue tracker (YAML, 3.0)", tracker, "https://tracker.example/api"),
    await measure("GitHub REST (`@octokit/openapi` api.github.com.json, 3.0)", github, undefined),
  ];
  const lines = [
    "## OpenAPI connector",
    "",
    `Medians of ${RUNS} runs (first build: the first run in the process, as a cold start pays it). Build = parse (JSON/YAML) + \`$ref\` resolution + one method per operation with bundled schemas.`,
    "",
    "| document | size (MB) | methods | first build (ms) | build (ms) | declarations of all methods (ms) | declaration size (chars) |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.label} | ${row.megabytes.toFixed(2)} | ${row.methods} | ${row.firstBuildMs.toFixed(1)} | ${row.buildMs.toFixed(1)} | ${row.declarationsMs.toFixed(1)} | ${row.declarationChars} |`,
    ),
    "",
  ];
  return lines.join("\n");
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.log(await run());
