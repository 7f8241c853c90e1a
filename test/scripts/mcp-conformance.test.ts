/**
 * The conformance runner's own logic (scripts/mcp-conformance.ts): which of the suite's server scenarios run against
 * which target and why the others do not, that a warning fails a scenario as a failure does, how the baseline of
 * expected failures is read and judged (a listed scenario that passes is a stale entry), and that the baseline
 * lists nothing. Also that the installed suite's scenario list is the one the runner classified.
 */
import { execFileSync, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import {
  BASELINE_FILE,
  judge,
  parseBaseline,
  parseScenarioList,
  type ScenarioResult,
  SERVER_SCENARIOS,
  selectScenarios,
  type TargetTraits,
} from "../../scripts/mcp-conformance.js";

const ROOT = resolve(import.meta.dirname, "../..");
const SUITE = resolve(ROOT, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
const RUN_TIMEOUT_MS = 180_000;

const LIST = `Server scenarios (test against a server):
  - server-initialize [2025-06-18,2025-11-25]
  - ping [2025-06-18,2025-11-25]
  - tools-call-simple-text [2025-06-18,2025-11-25]
  - server-sse-polling [2025-11-25]
  - resources-list [2025-06-18,2025-11-25]
  - dns-rebinding-protection [2025-11-25]

Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - sse-retry [2025-11-25]
`;

const CLI: TargetTraits = { sessions: true, authenticated: false, capabilities: ["tools", "logging"] };
const HANDLER: TargetTraits = { sessions: false, authenticated: true, capabilities: ["tools", "logging"] };

const check = (status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO") => ({ id: status, name: status, status });
const result = (scenario: string, ...statuses: Array<"SUCCESS" | "FAILURE" | "WARNING" | "INFO">): ScenarioResult => ({
  target: "cli",
  scenario,
  checks: statuses.map(check),
});

describe("the MCP conformance runner", () => {
  it("reads the server scenarios of `conformance list`, not the client ones", () => {
    expect(parseScenarioList(LIST)).toEqual([
      "server-initialize",
      "ping",
      "tools-call-simple-text",
      "server-sse-polling",
      "resources-list",
      "dns-rebinding-protection",
    ]);
  });

  it("runs what applies to each target and names why the rest does not", () => {
    const table = {
      "server-initialize": SERVER_SCENARIOS["server-initialize"],
      ping: SERVER_SCENARIOS["ping"],
      "tools-call-simple-text": SERVER_SCENARIOS["tools-call-simple-text"],
      "server-sse-polling": SERVER_SCENARIOS["server-sse-polling"],
      "resources-list": SERVER_SCENARIOS["resources-list"],
      "dns-rebinding-protection": SERVER_SCENARIOS["dns-rebinding-protection"],
    } as typeof SERVER_SCENARIOS;
    const listed = parseScenarioList(LIST);
    const cli = selectScenarios(listed, CLI, table);
    expect(cli.run).toEqual(["server-initialize", "ping", "server-sse-polling", "dns-rebinding-protection"]);
    expect(cli.excluded.map((exclusion) => exclusion.scenario)).toEqual(["tools-call-simple-text", "resources-list"]);
    expect(cli.excluded[0]?.reason).toMatch(/reference-server fixtures: calls the tool `test_simple_text`/);
    // A target that declares the capability gets the listing scenario.
    expect(selectScenarios(listed, { ...CLI, capabilities: ["tools", "resources"] }, table).run).toContain(
      "resources-list",
    );
    const handler = selectScenarios(listed, HANDLER, table);
    expect(handler.run).toEqual(["server-initialize", "ping"]);
    expect(handler.excluded.find((exclusion) => exclusion.scenario === "server-sse-polling")?.reason).toMatch(
      /^no sessions/,
    );
    expect(handler.excluded.find((exclusion) => exclusion.scenario === "dns-rebinding-protection")?.reason).toMatch(
      /without authentication/,
    );
  });

  it("refuses a suite whose scenarios it has not classified, and a table naming scenarios the suite dropped", () => {
    expect(() => selectScenarios([...parseScenarioList(LIST), "tools-call-new"], CLI)).toThrow(
      /not classified: tools-call-new/,
    );
    expect(() => selectScenarios(parseScenarioList(LIST), CLI)).toThrow(/no longer lists: logging-set-level/);
  });

  it("fails a scenario with a failed check or a warning; passes one with successes and notes only", () => {
    const { verdicts, passed } = judge([result("ping", "SUCCESS", "INFO")], []);
    expect(passed).toBe(true);
    expect(verdicts[0]?.outcome).toBe("pass");
    for (const bad of [result("ping", "SUCCESS", "WARNING"), result("ping", "FAILURE"), result("ping")]) {
      const judged = judge([bad], []);
      expect(judged.passed).toBe(false);
      expect(judged.verdicts[0]?.outcome).toBe("FAIL");
    }
    const crashed = judge([{ target: "proxy", scenario: "ping", checks: [], error: "the suite exited 2" }], []);
    expect(crashed.verdicts[0]?.failed[0]?.errorMessage).toBe("the suite exited 2");
  });

  it("does not count a warning of a check that needs the suite's fixture; counts its failure and other warnings", () => {
    const polling = (status: "WARNING" | "FAILURE"): ScenarioResult => ({
      target: "proxy",
      scenario: "server-sse-polling",
      checks: [
        { id: "server-sse-priming-event", name: "ServerSendsPrimingEvent", status: "SUCCESS" },
        { id: "server-sse-disconnect-resume", name: "ServerDisconnectResume", status },
      ],
    });
    expect(judge([polling("WARNING")], [])).toMatchObject({
      passed: true,
      verdicts: [{ outcome: "pass", waived: [{ name: "ServerDisconnectResume" }], warned: [] }],
    });
    expect(judge([polling("FAILURE")], []).passed).toBe(false);
    // The same check id in another scenario, and another warning in this one, count.
    expect(judge([{ ...polling("WARNING"), scenario: "ping" }], []).passed).toBe(false);
    const primingWarns = polling("WARNING");
    primingWarns.checks[0] = { ...primingWarns.checks[0]!, status: "WARNING" };
    expect(judge([primingWarns], []).passed).toBe(false);
  });

  it("judges the baseline: an expected failure passes, a listed scenario that passes or did not run is stale", () => {
    expect(judge([result("logging-set-level", "FAILURE")], ["cli/logging-set-level"])).toMatchObject({
      passed: true,
      verdicts: [{ outcome: "expected failure" }],
    });
    expect(judge([result("logging-set-level", "SUCCESS")], ["cli/logging-set-level"])).toMatchObject({
      passed: false,
      verdicts: [{ outcome: "STALE baseline entry" }],
    });
    expect(judge([result("ping", "SUCCESS")], ["proxy/ping"]).passed).toBe(false);
    expect(parseBaseline('{ "expectedFailures": ["handler/ping"] }')).toEqual(["handler/ping"]);
    expect(() => parseBaseline('{ "expectedFailures": ["ping"] }')).toThrow(
      /is not "<cli\|handler\|proxy>\/<scenario>"/,
    );
    expect(() => parseBaseline('{ "expectedFailures": ["cli/no-such-scenario"] }')).toThrow(/is not/);
    expect(() => parseBaseline("{}")).toThrow(/must be an array/);
  });

  it("expects no failure: the baseline lists nothing", () => {
    expect(parseBaseline(readFileSync(BASELINE_FILE, "utf8"))).toEqual([]);
  });

  it("has classified every server scenario of the installed suite", () => {
    const listed = parseScenarioList(execFileSync(process.execPath, [SUITE, "list", "--server"], { encoding: "utf8" }));
    expect(listed.length).toBeGreaterThan(20);
    const cli = selectScenarios(listed, { sessions: true, authenticated: false, capabilities: ["tools", "logging"] });
    expect(cli.run).toEqual([
      "server-initialize",
      "logging-set-level",
      "ping",
      "tools-list",
      "server-sse-polling",
      "server-sse-multiple-streams",
      "dns-rebinding-protection",
    ]);
    // Each exclusion for a fixture names what the suite's reference server has and ours does not.
    for (const { reason } of cli.excluded) expect(reason).toMatch(/`[^`]+`/);
  });

  it(
    "runs a scenario of the real suite against a real target and reads its checks (the built handler, ping)",
    async () => {
      const { code, stdout } = await new Promise<{ code: number | null; stdout: string }>((done) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", "scripts/mcp-conformance.ts", "--target", "handler", "--scenario", "ping"],
          { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] },
        );
        let out = "";
        child.stdout.on("data", (chunk: Buffer) => {
          out += chunk.toString();
        });
        child.once("exit", (exit) => done({ code: exit, stdout: out }));
      });
      expect(stdout).toMatch(/handler\s+ping\s+pass\s+1 passed, 0 failed, 0 warnings/);
      expect(stdout).toMatch(/not run: server-sse-polling \(no sessions/);
      expect(code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );
});
