import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { afterEach, describe, expect, it } from "vitest";
import { syntheticToolSets } from "../../bench/synthetic-tools.js";
import { createCodemodeRuntime, type CodemodeRuntime } from "../../src/ai/create-codemode-runtime.js";
import { buildToolDescription } from "../../src/ai/tool-description.js";
import type { OutboundFetchOptions } from "../../src/connectors/outbound-fetch.js";
import { resolveConnector } from "../../src/connectors/resolve-connector.js";
import { QuickJSExecutor } from "../../src/sandbox/quickjs-executor.js";

const opened: CodemodeRuntime[] = [];

afterEach(async () => {
  for (const runtime of opened.splice(0)) await runtime.close();
});

function runtimeWith(outbound?: OutboundFetchOptions) {
  const runtime = createCodemodeRuntime({
    store: ":memory:",
    executor: new QuickJSExecutor({ isolation: "in-process" }),
    ...(outbound === undefined ? {} : { outbound }),
  });
  opened.push(runtime);
  return runtime;
}

describe("tool description with outbound fetch", () => {
  it("says there is no fetch without the option", () => {
    const description = runtimeWith().tool().description ?? "";
    expect(description).toContain("No fetch, require, process or timers");
    expect(description).not.toContain("fetch(url");
  });

  it("names fetch and the allowed origins with the option", () => {
    const description =
      runtimeWith({ fetch: globalThis.fetch, allow: ["https://api.example.com", "https://*.example.org"] }).tool()
        .description ?? "";
    expect(description).toContain(
      "fetch(url, init?) works like the web fetch for https://api.example.com, https://*.example.org only",
    );
    expect(description).not.toContain("No fetch");
    expect(description).not.toContain("outbound");
  });

  it("stays under 1,000 o200k tokens with many tools and a long allowlist", () => {
    const connectors = Object.fromEntries(
      Object.entries(syntheticToolSets(5000)).map(([name, tools]) => [name, resolveConnector(name, tools)]),
    );
    const origins = Array.from({ length: 40 }, (_, index) => `https://service-${index}.internal.example.com`).join(
      ", ",
    );
    const text = buildToolDescription({ connectors, fetchOrigins: origins });
    expect(text).toContain("fetch(url, init?)");
    expect(countTokens(text)).toBeLessThan(1000);
  });
});
