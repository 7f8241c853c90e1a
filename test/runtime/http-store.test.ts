/**
 * The core durable-runtime suites (approvals, replay, pause, rollback, store
 * failures, replay hardening) run unchanged with every store an
 * `@libsql/client` Client on `http://127.0.0.1:PORT` (the Hrana test server),
 * so the journal's statements travel through the remote transport Turso uses.
 */
import { vi } from "vitest";
import type * as RuntimeFixture from "./runtime-fixture.js";

vi.mock("./runtime-fixture.js", async (importOriginal) => {
  const { overHttp } = await import("./http-store-fixture.js");
  return overHttp(await importOriginal<typeof RuntimeFixture>());
});

await import("./approvals.test.js");
await import("./replay.test.js");
await import("./pause.test.js");
await import("./rollback.test.js");
await import("./store-failure.test.js");
await import("./replay-hardening.test.js");

const { hranaServer } = await import("./http-store-fixture.js");
const { expect, it } = await import("vitest");

it("carried the suites' statements over HTTP (the fixture's clients were the remote ones)", () => {
  expect(hranaServer.stats.pipelines).toBeGreaterThan(500);
  expect(hranaServer.stats.requests["batch"]).toBeGreaterThan(100);
});
