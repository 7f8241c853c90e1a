/**
 * The official MCP conformance suite (`@modelcontextprotocol/conformance`) against the package as users run it:
 * `ai-codemode mcp --http` (the built CLI over an app's runtime module), `createCodemodeMcpHandler` without
 * sessions in a small Node HTTP server (a serverless host), and `ai-codemode mcp --http --proxy` over one of the
 * tests' upstream MCP servers. Every server scenario the suite lists runs against every target, unless the table
 * below excludes it with its reason; a scenario with a failed check OR a warning fails the run, unless
 * `scripts/mcp-conformance-baseline.json` expects it to fail (and a listed scenario that passes fails the run too:
 * the baseline went stale). The baseline lists nothing. `.ci/run` runs it after the build.
 *
 * Usage: `npm run build && npm run conformance:mcp` (`-- --target cli|handler|proxy`, `-- --scenario <name>`,
 * `-- --keep` leaves the suite's checks.json files in the temp folder).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { fetchRequestListener } from "../src/cli/fetch-over-node-http.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SUITE = join(ROOT, "node_modules", "@modelcontextprotocol", "conformance", "dist", "index.js");
const CLI = join(ROOT, "dist", "cli.js");
/** The baseline of expected failures (`"<target>/<scenario>"`); it lists nothing. */
export const BASELINE_FILE = join(ROOT, "scripts", "mcp-conformance-baseline.json");
/** One scenario's run, the suite's client included, ends within this (the SSE scenarios wait up to 15 s). */
const SCENARIO_TIMEOUT_MS = 120_000;

/** The three ways the package serves MCP over HTTP. */
export type TargetName = "cli" | "handler" | "proxy";
/** What a target offers that decides whether a scenario applies to it. */
export interface TargetTraits {
  /** Whether it keeps MCP sessions (`Mcp-Session-Id`). */
  sessions: boolean;
  /** Whether every request passes the app's authentication first (the handler's `authorize`). */
  authenticated: boolean;
  /** The capabilities its `initialize` result declares (`tools`, `logging`, `resources`, …). */
  capabilities: readonly string[];
}

/**
 * Whether a server scenario applies: to every target; to targets with sessions; to targets declaring a
 * capability (a server that does not offer `prompts` has nothing to list); or to none, with the reason.
 */
export type Applicability = (
  | { applies: "always" }
  | { applies: "with-sessions"; reason: string }
  | { applies: "without-authentication"; reason: string }
  | { applies: "with-capability"; capability: string; reason: string }
  | { applies: "never"; reason: string }
) & {
  /**
   * Checks of an applicable scenario that exercise one of the suite's fixtures (check id → what it needs): a
   * warning of such a check does not fail the run (a failure still does). Each is named in the run's table.
   */
  fixtureChecks?: Readonly<Record<string, string>>;
};

const FIXTURES = "needs the suite's reference-server fixtures";
/** Scenarios built on a tool, resource or prompt only the suite's reference server has. */
const fixture = (what: string): Applicability => ({ applies: "never", reason: `${FIXTURES}: ${what}` });

/**
 * Every server scenario of `@modelcontextprotocol/conformance` 0.1.16 (`conformance list --server`), read one by
 * one. A scenario the installed suite lists and this table does not fails the run: read it, then classify it.
 */
export const SERVER_SCENARIOS: Readonly<Record<string, Applicability>> = {
  "server-initialize": { applies: "always" },
  "logging-set-level": { applies: "always" },
  ping: { applies: "always" },
  "tools-list": { applies: "always" },
  "dns-rebinding-protection": {
    applies: "without-authentication",
    reason:
      "applies, as the scenario says, to localhost servers without authentication; the handler's every request passes " +
      "`authorize` (a rebinding page has no cookie or token of the real host) and it serves the host the platform routes to it",
  },
  "server-sse-multiple-streams": {
    applies: "with-sessions",
    reason: "opens three POST streams on one Mcp-Session-Id and warns when the server gives none",
  },
  "server-sse-polling": {
    applies: "with-sessions",
    reason: "resumes a POST stream on its session with Last-Event-ID and warns when the server gives no session",
    // Its POST calls the reference server's `test_reconnection`; any server's answer on that stream shows the
    // priming event and the `retry` field it checks. Only the resumption check needs the tool itself.
    fixtureChecks: {
      "server-sse-disconnect-resume":
        "the result of `test_reconnection` (the reference server's tool that closes its stream mid-call) on the GET stream",
    },
  },
  "resources-list": {
    applies: "with-capability",
    capability: "resources",
    reason: "lists the server's resources; a server without the `resources` capability has none to list",
  },
  "prompts-list": {
    applies: "with-capability",
    capability: "prompts",
    reason: "lists the server's prompts; a server without the `prompts` capability has none to list",
  },
  "completion-complete": fixture("completes an argument of the prompt `test_prompt_with_arguments`"),
  "tools-call-simple-text": fixture("calls the tool `test_simple_text`"),
  "tools-call-image": fixture("calls the tool `test_image_content`"),
  "tools-call-audio": fixture("calls the tool `test_audio_content`"),
  "tools-call-embedded-resource": fixture("calls the tool `test_embedded_resource`"),
  "tools-call-mixed-content": fixture("calls the tool `test_multiple_content_types`"),
  "tools-call-with-logging": fixture("calls the tool `test_tool_with_logging`"),
  "tools-call-error": fixture("calls the tool `test_error_handling`"),
  "tools-call-with-progress": fixture("calls the tool `test_tool_with_progress`"),
  "tools-call-sampling": fixture("calls the tool `test_sampling`"),
  "tools-call-elicitation": fixture("calls the tool `test_elicitation`"),
  "json-schema-2020-12": fixture("lists the tool `json_schema_2020_12_tool` with its exact inputSchema"),
  "elicitation-sep1034-defaults": fixture("calls the tool `test_elicitation_sep1034_defaults`"),
  "elicitation-sep1330-enums": fixture("calls the tool `test_elicitation_sep1330_enums`"),
  "resources-read-text": fixture("reads the resource `test://static-text`"),
  "resources-read-binary": fixture("reads the resource `test://static-binary`"),
  "resources-templates-read": fixture("reads the template `test://template/{id}/data`"),
  "resources-subscribe": fixture("subscribes to the resource `test://watched-resource`"),
  "resources-unsubscribe": fixture("unsubscribes from the resource `test://watched-resource`"),
  "prompts-get-simple": fixture("gets the prompt `test_simple_prompt`"),
  "prompts-get-with-args": fixture("gets the prompt `test_prompt_with_arguments`"),
  "prompts-get-embedded-resource": fixture("gets the prompt `test_prompt_with_embedded_resource`"),
  "prompts-get-with-image": fixture("gets the prompt `test_prompt_with_image`"),
};

/** The scenario names of `conformance list --server`'s output (`  - name [versions]` lines). */
export function parseScenarioList(output: string): string[] {
  const server = output.split(/^Client scenarios/m)[0] ?? "";
  return [...server.matchAll(/^\s+- (\S+)/gm)].map((match) => match[1] as string);
}

/** A scenario left out for a target, and why. */
export interface Exclusion {
  scenario: string;
  reason: string;
}

/**
 * The scenarios to run against a target of `traits`, in the suite's order, and the ones left out with the reason.
 * Throws when the suite lists a scenario the table does not classify, or the table names one the suite lacks.
 */
export function selectScenarios(
  listed: readonly string[],
  traits: TargetTraits,
  table: Readonly<Record<string, Applicability>> = SERVER_SCENARIOS,
): { run: string[]; excluded: Exclusion[] } {
  const unknown = listed.filter((scenario) => table[scenario] === undefined);
  if (unknown.length > 0)
    throw new Error(
      `The suite lists scenarios this runner has not classified: ${unknown.join(", ")}. Read them, then add them to SERVER_SCENARIOS.`,
    );
  const gone = Object.keys(table).filter((scenario) => !listed.includes(scenario));
  if (gone.length > 0)
    throw new Error(`SERVER_SCENARIOS names scenarios the suite no longer lists: ${gone.join(", ")}.`);
  const run: string[] = [];
  const excluded: Exclusion[] = [];
  for (const scenario of listed) {
    const rule = table[scenario] as Applicability;
    if (rule.applies === "always") run.push(scenario);
    else if (rule.applies === "with-sessions" && traits.sessions) run.push(scenario);
    else if (rule.applies === "with-capability" && traits.capabilities.includes(rule.capability)) run.push(scenario);
    else if (rule.applies === "without-authentication" && !traits.authenticated) run.push(scenario);
    else if (rule.applies === "with-sessions") excluded.push({ scenario, reason: `no sessions: it ${rule.reason}` });
    else excluded.push({ scenario, reason: rule.reason });
  }
  return { run, excluded };
}

/** One check of the suite's `checks.json`. */
export interface SuiteCheck {
  id: string;
  name: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/** A scenario run against a target: its checks (none when the suite itself failed, with `error`). */
export interface ScenarioResult {
  target: TargetName;
  scenario: string;
  checks: SuiteCheck[];
  error?: string;
}

/** A scenario's verdict: passed (no failure, no warning) or not, with the failed and warned checks. */
export interface Verdict {
  target: TargetName;
  scenario: string;
  passed: number;
  failed: SuiteCheck[];
  warned: SuiteCheck[];
  /** Warnings of checks that need one of the suite's fixtures (`fixtureChecks`): shown, not counted. */
  waived: SuiteCheck[];
  ok: boolean;
  /** Whether the baseline expected it to fail. */
  expected: boolean;
  /** What the run concludes about it. */
  outcome: "pass" | "FAIL" | "expected failure" | "STALE baseline entry";
}

/**
 * The verdicts of `results` against `baseline` (`"<target>/<scenario>"` entries), and whether the run passes: every
 * scenario passes or is an expected failure, and every baseline entry names a scenario that ran (else it is stale).
 */
export function judge(
  results: readonly ScenarioResult[],
  baseline: readonly string[],
  table: Readonly<Record<string, Applicability>> = SERVER_SCENARIOS,
): { verdicts: Verdict[]; passed: boolean } {
  const verdicts = results.map((result): Verdict => {
    const failed = result.checks.filter((check) => check.status === "FAILURE");
    if (result.error !== undefined || result.checks.length === 0)
      failed.push({
        id: "suite",
        name: "suite",
        status: "FAILURE",
        errorMessage: result.error ?? "no checks recorded",
      });
    const fixtureChecks = table[result.scenario]?.fixtureChecks ?? {};
    const warnings = result.checks.filter((check) => check.status === "WARNING");
    const warned = warnings.filter((check) => fixtureChecks[check.id] === undefined);
    const waived = warnings.filter((check) => fixtureChecks[check.id] !== undefined);
    const ok = failed.length === 0 && warned.length === 0;
    const expected = baseline.includes(`${result.target}/${result.scenario}`);
    const outcome = ok ? (expected ? "STALE baseline entry" : "pass") : expected ? "expected failure" : "FAIL";
    const passed = result.checks.filter((check) => check.status === "SUCCESS").length;
    return { target: result.target, scenario: result.scenario, passed, failed, warned, waived, ok, expected, outcome };
  });
  const ran = new Set(results.map((result) => `${result.target}/${result.scenario}`));
  const passed = verdicts.every((verdict) => verdict.outcome === "pass" || verdict.outcome === "expected failure");
  return { verdicts, passed: passed && baseline.every((entry) => ran.has(entry)) };
}

/** Reads the baseline file: `{ "expectedFailures": ["<target>/<scenario>", …] }`, each entry a known scenario. */
export function parseBaseline(text: string): string[] {
  const parsed = JSON.parse(text) as { expectedFailures?: unknown };
  const entries = parsed.expectedFailures;
  if (!Array.isArray(entries) || entries.some((entry) => typeof entry !== "string"))
    throw new Error(`${BASELINE_FILE}: expectedFailures must be an array of "<target>/<scenario>" strings.`);
  for (const entry of entries as string[]) {
    const [target, scenario] = entry.split("/");
    if (!["cli", "handler", "proxy"].includes(target ?? "") || SERVER_SCENARIOS[scenario ?? ""] === undefined)
      throw new Error(`${BASELINE_FILE}: ${JSON.stringify(entry)} is not "<cli|handler|proxy>/<scenario>".`);
  }
  return entries as string[];
}

/** The table the run prints: one row per scenario and target. */
export function formatVerdicts(verdicts: readonly Verdict[]): string {
  const rows = verdicts.map((verdict) => {
    const counts = `${verdict.passed} passed, ${verdict.failed.length} failed, ${verdict.warned.length} warnings`;
    const why = [...verdict.failed, ...verdict.warned].map(
      (check) => `\n      ${check.status} ${check.name}: ${check.errorMessage ?? ""}`,
    );
    for (const check of verdict.waived)
      why.push(`\n      not counted: WARNING ${check.name} (needs the suite's fixture): ${check.errorMessage ?? ""}`);
    return `  ${verdict.target.padEnd(8)} ${verdict.scenario.padEnd(30)} ${verdict.outcome.padEnd(22)} ${counts}${why.join("")}`;
  });
  return rows.join("\n");
}

// ---------------------------------------------------------------------------------------------------------------
// Running it: the targets, the suite per scenario, the table.

interface RunningTarget {
  name: TargetName;
  url: string;
  sessions: boolean;
  authenticated: boolean;
  stop: () => Promise<void>;
}

/** Waits for a server process to print `… on http://…` and resolves with the URL. */
function listening(child: ChildProcess, what: string): Promise<string> {
  return new Promise((resolveUrl, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /on (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) resolveUrl(url);
    });
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}) before listening: ${err}`)));
  });
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  child.kill("SIGTERM");
  return exited;
}

/** The app's runtime module `ai-codemode mcp --runtime` loads: one connector, the journal in `folder`. */
function writeRuntimeModule(folder: string): string {
  const file = join(folder, "codemode.config.mjs");
  const dist = pathToFileURL(join(ROOT, "dist", "index.js")).href;
  writeFileSync(
    file,
    `import { createCodemodeRuntime } from ${JSON.stringify(dist)};
export const runtime = createCodemodeRuntime({
  store: ${JSON.stringify(`file:${join(folder, "codemode.db")}`)},
  connectors: { math: { methods: { double: { description: "Twice n", execute: ({ n }) => n * 2 } } } },
});\n`,
  );
  return file;
}

async function startCli(folder: string, args: string[], name: TargetName): Promise<RunningTarget> {
  const child = spawn(process.execPath, [CLI, "mcp", "--http", "127.0.0.1:0", ...args], {
    cwd: folder,
    env: { PATH: process.env["PATH"] ?? "" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const url = await listening(child, `ai-codemode mcp (${name})`);
  return { name, url, sessions: true, authenticated: false, stop: () => stopChild(child) };
}

/** `createCodemodeMcpHandler({ sessions: false })` of the built package on 127.0.0.1, as a serverless host runs it. */
async function startHandler(folder: string): Promise<RunningTarget> {
  const { createCodemodeRuntime } = (await import(
    pathToFileURL(join(ROOT, "dist", "index.js")).href
  )) as typeof import("../src/index.js");
  const { createCodemodeMcpHandler } = (await import(
    pathToFileURL(join(ROOT, "dist", "mcp.js")).href
  )) as typeof import("../src/mcp.js");
  const runtime = createCodemodeRuntime({
    store: `file:${join(folder, "handler.db")}`,
    connectors: {
      math: {
        methods: { double: { description: "Twice n", execute: (args: unknown) => (args as { n: number }).n * 2 } },
      },
    },
  });
  const handler = createCodemodeMcpHandler({ runtime, sessions: false, authorize: () => ({ scope: "conformance" }) });
  const server: Server = createServer(fetchRequestListener(handler));
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", () => done()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  return {
    name: "handler",
    url,
    sessions: false,
    authenticated: true,
    stop: async () => {
      await handler.close();
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      await runtime.close();
    },
  };
}

/** `servers.json` of the proxy target: the tests' `notes` server over stdio, the journal in `folder`. */
function writeProxyConfig(folder: string): string {
  const file = join(folder, "servers.json");
  const notes = join(ROOT, "test", "mcp", "fixtures", "notes-server.mjs");
  const config = {
    mcpServers: { notes: { command: process.execPath, args: [notes] } },
    store: `file:${join(folder, "proxy.db")}`,
  };
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** The capabilities a target's `initialize` result declares (one plain request; a session it opens idles out). */
async function capabilitiesOf(url: string): Promise<string[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2025-11-25",
        capabilities: {},
        clientInfo: { name: "conformance-runner", version: "1" },
      },
    }),
  });
  const text = await response.text();
  const json = text.trimStart().startsWith("{") ? text : (/^data: (.+)$/m.exec(text)?.[1] ?? "{}");
  const result = (JSON.parse(json) as { result?: { capabilities?: Record<string, unknown> } }).result;
  if (result?.capabilities === undefined)
    throw new Error(`${url}: initialize answered ${response.status} ${text.slice(0, 200)}`);
  return Object.keys(result.capabilities);
}

/** Every checks.json under `folder`. */
function checkFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, encoding: "utf8" })
    .filter((path) => path.endsWith("checks.json"))
    .map((path) => join(folder, path));
}

/** Runs the suite (asynchronously: the handler target answers from this process) and resolves with its exit. */
function runSuite(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [SUITE, ...args], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), SCENARIO_TIMEOUT_MS);
    child.once("exit", (code) => {
      clearTimeout(timer);
      done({ code, stderr });
    });
  });
}

/** Runs one scenario of the suite against `target` and reads its checks. */
async function runScenario(target: RunningTarget, scenario: string, output: string): Promise<ScenarioResult> {
  const folder = join(output, target.name, scenario);
  mkdirSync(folder, { recursive: true });
  const { code, stderr } = await runSuite(["server", "--url", target.url, "--scenario", scenario, "-o", folder]);
  // Exit 1 is the suite's "a check failed" (the checks say which); anything else is the suite itself failing.
  const error = code === 0 || code === 1 ? undefined : `the suite exited ${String(code)}: ${stderr.slice(0, 500)}`;
  const checks = checkFiles(folder).flatMap((file) => JSON.parse(readFileSync(file, "utf8")) as SuiteCheck[]);
  return { target: target.name, scenario, checks, ...(error === undefined ? {} : { error }) };
}

function option(args: string[], name: string): string | undefined {
  const at = args.indexOf(`--${name}`);
  return at === -1 ? undefined : args[at + 1];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (!existsSync(CLI)) throw new Error("dist/ is missing: run `npm run build` first.");
  const onlyTarget = option(args, "target");
  const onlyScenario = option(args, "scenario");
  const baseline = parseBaseline(readFileSync(BASELINE_FILE, "utf8"));
  const listed = parseScenarioList(execFileSync(process.execPath, [SUITE, "list", "--server"], { encoding: "utf8" }));
  const folder = mkdtempSync(join(tmpdir(), "codemode-conformance-"));
  const output = join(folder, "results");
  const starters: Record<TargetName, () => Promise<RunningTarget>> = {
    cli: () => startCli(folder, ["--runtime", writeRuntimeModule(folder)], "cli"),
    handler: () => startHandler(folder),
    proxy: () => startCli(folder, ["--proxy", writeProxyConfig(folder)], "proxy"),
  };
  const results: ScenarioResult[] = [];
  try {
    for (const name of Object.keys(starters) as TargetName[]) {
      if (onlyTarget !== undefined && onlyTarget !== name) continue;
      const target = await starters[name]();
      try {
        const capabilities = await capabilitiesOf(target.url);
        const traits = { sessions: target.sessions, authenticated: target.authenticated, capabilities };
        const { run, excluded } = selectScenarios(listed, traits);
        console.log(`::: ${name} at ${target.url} (capabilities: ${traits.capabilities.join(", ")})`);
        for (const { scenario, reason } of excluded.filter((exclusion) => !exclusion.reason.startsWith(FIXTURES)))
          console.log(`    not run: ${scenario} (${reason})`);
        console.log(
          `    not run: ${excluded.filter((exclusion) => exclusion.reason.startsWith(FIXTURES)).length} scenarios (each ${FIXTURES})`,
        );
        for (const scenario of run) {
          if (onlyScenario !== undefined && onlyScenario !== scenario) continue;
          results.push(await runScenario(target, scenario, output));
        }
      } finally {
        await target.stop();
      }
    }
  } finally {
    if (args.includes("--keep")) console.log(`checks kept in ${output}`);
    else rmSync(folder, { recursive: true, force: true });
  }
  const ran = new Set(results.map((result) => `${result.target}/${result.scenario}`));
  const partial = onlyTarget !== undefined || onlyScenario !== undefined;
  const { verdicts, passed } = judge(results, partial ? baseline.filter((entry) => ran.has(entry)) : baseline);
  console.log(`\n${formatVerdicts(verdicts)}\n`);
  console.log(
    passed ? `MCP conformance: ${verdicts.length} scenario runs, all pass.` : "MCP conformance: FAILED (see above).",
  );
  process.exitCode = passed ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
