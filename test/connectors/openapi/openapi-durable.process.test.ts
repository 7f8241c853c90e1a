/**
 * The OpenAPI connector under `createCodemodeRuntime`, across processes: a program lists,
 * creates (approval) and reads back; it pauses in one `node` process and is approved and
 * resumed in another. The loopback server lives here and counts requests: the POST
 * happens exactly once, the recorded GET is not repeated, and the token never reaches
 * the journal.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startIssueTrackerServer, type IssueTrackerServer } from "./fixtures/issue-tracker-server.js";

const TOKEN = "durable-tracker-token-42";
const FIXTURE = fileURLToPath(new URL("./fixtures/tracker-program.ts", import.meta.url));
const run = promisify(execFile);

async function invocation(
  args: string[],
): Promise<{ output: Record<string, unknown>; detail?: Record<string, unknown> }> {
  const { stdout } = await run(process.execPath, ["--import", "tsx", FIXTURE, ...args], {
    env: { ...process.env, TRACKER_TOKEN: TOKEN },
    timeout: 60_000,
  });
  const line = stdout.trim().split("\n").at(-1) ?? "";
  return JSON.parse(line) as { output: Record<string, unknown>; detail?: Record<string, unknown> };
}

describe("OpenAPI connector: pause in one process, approve in another", () => {
  let server: IssueTrackerServer;
  let directory: string;

  beforeAll(async () => {
    server = await startIssueTrackerServer({ token: TOKEN });
    directory = mkdtempSync(join(tmpdir(), "codemode-openapi-"));
  });
  afterAll(async () => {
    await server.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it("lists, pauses before the POST, resumes elsewhere and POSTs exactly once", async () => {
    const store = `file:${join(directory, "codemode.db")}`;
    const issuesPath = "/api/projects/core/issues";
    const gets = () =>
      server.requests.filter((request) => request.method === "GET" && request.path === issuesPath).length;

    const first = await invocation(["start", store, server.baseUrl]);
    expect(first.output).toMatchObject({
      status: "paused",
      pending: [
        {
          seq: expect.any(Number),
          connector: "tracker",
          method: "createIssue",
          args: { project: "core", body: { title: "Follow-up to #2", labels: ["triage"] } },
        },
      ],
    });
    expect(server.count("POST")).toBe(0);
    expect(gets()).toBe(1);

    const executionId = String(first.output["executionId"]);
    const second = await invocation(["approve", store, server.baseUrl, executionId]);
    expect(second.output).toEqual({
      status: "completed",
      executionId,
      result: { listed: 2, created: 3, readBack: "Follow-up to #2", labels: ["triage"] },
    });
    expect(server.count("POST")).toBe(1);
    // The list was recorded on the first pass and replayed, not requested again.
    expect(gets()).toBe(1);
    expect(server.requests.filter((request) => request.path === `${issuesPath}/3`)).toHaveLength(1);
    expect(JSON.stringify(second.detail)).not.toContain(TOKEN);

    // A late second approval (another invocation) changes nothing.
    const late = await invocation(["approve", store, server.baseUrl, executionId]);
    expect(late.output["status"]).toBe("error");
    expect(server.count("POST")).toBe(1);
  });
});
