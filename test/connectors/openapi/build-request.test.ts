import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { openApiConnector } from "../../../src/connectors/openapi/openapi-connector.js";
import type { OpenApiFetch } from "../../../src/connectors/openapi/openapi-connector-options.js";
import type { Connector, ConnectorCallContext } from "../../../src/connectors/types.js";

interface Captured {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

const ctx = { abortSignal: new AbortController().signal } as ConnectorCallContext;

/** A connector over `paths` whose fetch captures requests and answers `reply()`. */
async function capture(
  paths: Record<string, unknown>,
  reply: () => Response = () => new Response(null, { status: 204 }),
) {
  const requests: Captured[] = [];
  const fetch: OpenApiFetch = async (url, init) => {
    const body = init.body;
    requests.push({
      url: url.href,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
      body:
        body instanceof FormData
          ? [...(body as unknown as Iterable<[string, unknown]>)]
          : body instanceof URLSearchParams
            ? body.toString()
            : body,
    });
    return reply();
  };
  const connector = await openApiConnector({
    spec: { openapi: "3.1.0", info: { title: "t", version: "1" }, paths },
    baseUrl: "https://api.example/base/",
    headers: { "X-Api-Key": "host-key-123456789", "User-Agent": "host-app" },
    fetch,
  });
  return { connector, requests };
}

function run(connector: Connector, name: string, args: unknown) {
  return connector.methods[name]!.execute(args, ctx);
}

describe("request building", () => {
  it("serializes path styles, cookies, and keeps the base URL's path", async () => {
    const { connector, requests } = await capture({
      "/a/{simple}/{label}/{matrix}": {
        get: {
          operationId: "styles",
          parameters: [
            { name: "simple", in: "path", required: true, schema: { type: "array" } },
            { name: "label", in: "path", required: true, style: "label", schema: { type: "string" } },
            { name: "matrix", in: "path", required: true, style: "matrix", explode: true, schema: { type: "array" } },
            { name: "session", in: "cookie", schema: { type: "string" } },
            { name: "tags", in: "query", style: "pipeDelimited", schema: { type: "array" } },
            { name: "ids", in: "query", schema: { type: "array" } },
          ],
          responses: { "204": { description: "ok" } },
        },
      },
    });
    await run(connector, "styles", {
      simple: ["x", "y z"],
      label: "l",
      matrix: [1, 2],
      session: "s 1",
      tags: ["a", "b"],
      ids: [1, 2],
    });
    expect(requests[0]!.url).toBe("https://api.example/base/a/x,y%20z/.l/;matrix=1;matrix=2?tags=a%7Cb&ids=1&ids=2");
    expect(requests[0]!.headers["cookie"]).toBe("session=s%201");
  });

  it("refuses path parameters that would make a dot segment or an empty segment, before anything is sent", async () => {
    const { connector, requests } = await capture({
      "/repos/{owner}/{repo}/v{n}": {
        get: {
          operationId: "repo",
          parameters: [
            { name: "owner", in: "path", required: true, schema: { type: "string" } },
            { name: "repo", in: "path", required: true, style: "label", schema: { type: "string" } },
            { name: "n", in: "path", required: true, schema: { type: "string" } },
          ],
          responses: { "204": { description: "ok" } },
        },
      },
    });
    const method = connector.methods["repo"]!;
    const refused = async (args: Record<string, string>) => {
      const checked = await method.validate!(args);
      return checked.success ? "accepted" : checked.error;
    };
    // A label-style "." makes the segment "..": refused like a plain "..".
    for (const args of [
      { owner: "..", repo: "r", n: "1" },
      { owner: ".", repo: "r", n: "1" },
      { owner: "o", repo: ".", n: "1" },
      { owner: "", repo: "r", n: "1" },
    ]) {
      expect(await refused(args), JSON.stringify(args)).toMatch(
        /^GET \/repos\/\{owner\}\/\{repo\}\/v\{n\}: path parameter (owner|repo) would make a path segment/,
      );
      expect(method.describeRequest!(args)).toBeUndefined();
      await expect(run(connector, "repo", args)).rejects.toThrow(/outside this operation's path/);
    }
    // "%2e" and friends are encoded (%252e): ordinary segments, accepted, and the approver sees the exact URL.
    const args = { owner: "%2E%2E", repo: "..", n: "." };
    expect(await refused(args)).toBe("accepted");
    expect(method.describeRequest!(args)).toEqual({
      method: "GET",
      url: "https://api.example/base/repos/%252E%252E/.../v.",
    });
    await run(connector, "repo", args);
    expect(requests.map((request) => request.url)).toEqual(["https://api.example/base/repos/%252E%252E/.../v."]);
  });

  it("gives clashing parameter names distinct keys and moves the body aside for a `body` parameter", async () => {
    const { connector, requests } = await capture({
      "/items/{id}": {
        post: {
          operationId: "weird",
          parameters: [
            { name: "id", in: "path", required: true, schema: { type: "string" } },
            { name: "id", in: "query", schema: { type: "string" } },
            { name: "body", in: "query", schema: { type: "string" } },
          ],
          requestBody: { content: { "application/json": { schema: { type: "object" } } } },
          responses: { "204": { description: "ok" } },
        },
      },
    });
    const schema = connector.methods["weird"]!.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(schema.properties)).toEqual(["id", "query_id", "body", "requestBody"]);
    expect(schema.required).toEqual(["id"]);
    await run(connector, "weird", { id: "p", query_id: "q", body: "b", requestBody: { ok: true } });
    expect(requests[0]!.url).toBe("https://api.example/base/items/p?id=q&body=b");
    expect(requests[0]!.body).toBe('{"ok":true}');
    expect(requests[0]!.headers["content-type"]).toBe("application/json");
  });

  it("encodes form, multipart, text and binary bodies", async () => {
    const bodyOf = (type: string) => ({
      post: {
        requestBody: { content: { [type]: { schema: { type: type.startsWith("text") ? "string" : "object" } } } },
        responses: { "204": { description: "ok" } },
      },
    });
    const { connector, requests } = await capture({
      "/form": bodyOf("application/x-www-form-urlencoded"),
      "/multipart": bodyOf("multipart/form-data"),
      "/text": bodyOf("text/plain"),
      "/binary": bodyOf("application/octet-stream"),
    });
    await run(connector, "post_form", { body: { name: "rex", tags: ["a", "b"] } });
    await run(connector, "post_multipart", { body: { name: "rex", file: new Uint8Array([1, 2]) } });
    await run(connector, "post_text", { body: "hello" });
    await run(connector, "post_binary", { body: new Uint8Array([7, 8, 9]) });
    expect(requests[0]!.body).toBe("name=rex&tags=a&tags=b");
    expect(requests[0]!.headers["content-type"]).toBeUndefined(); // fetch sets it with the charset
    const multipart = requests[1]!.body as Array<[string, unknown]>;
    expect(multipart[0]).toEqual(["name", "rex"]);
    expect(multipart[1]![1]).toBeInstanceOf(Blob);
    expect(requests[2]).toMatchObject({ body: "hello", headers: { "content-type": "text/plain" } });
    expect(new Uint8Array(await (requests[3]!.body as Blob).arrayBuffer())).toEqual(new Uint8Array([7, 8, 9]));
    expect(connector.methods["post_binary"]!.inputSchema).toMatchObject({
      properties: { body: { description: expect.stringContaining("Uint8Array") } },
    });
  });

  it("lets the host's headers win over header parameters", async () => {
    const { connector, requests } = await capture({
      "/h": {
        get: {
          operationId: "h",
          parameters: [{ name: "X-Api-Key", in: "header", schema: { type: "string" } }],
          responses: { "204": { description: "ok" } },
        },
      },
    });
    await run(connector, "h", { "X-Api-Key": "program-chosen" });
    expect(requests[0]!.headers["x-api-key"]).toBe("host-key-123456789");
    expect(requests[0]!.headers["user-agent"]).toBe("host-app");
  });

  it("reads text and binary responses, and redacts credential echoes only (not other headers)", async () => {
    let next: Response = new Response("");
    const { connector } = await capture(
      {
        "/t": { get: { operationId: "t", responses: { "200": { description: "ok", content: { "text/plain": {} } } } } },
      },
      () => next,
    );
    next = new Response("key=host-key-123456789 agent=host-app", { headers: { "content-type": "text/plain" } });
    expect(await run(connector, "t", {})).toBe("key=[redacted] agent=host-app");
    expect(connector.methods["t"]!.outputSchema).toMatchObject({ type: "string", description: "ok" });
    next = new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "image/png" } });
    expect(await run(connector, "t", {})).toEqual(new Uint8Array([1, 2, 3]));
    next = new Response("not json", { headers: { "content-type": "application/json" } });
    await expect(run(connector, "t", {})).rejects.toThrow(
      "GET /t failed with HTTP 200 with a body that is not valid JSON: not json",
    );
  });
});

describe("request building, property-based", () => {
  it("round-trips any path, query and deepObject values through the URL a server parses", async () => {
    const { connector, requests } = await capture({
      "/projects/{project}/items/{ids}": {
        get: {
          operationId: "roundTrip",
          parameters: [
            { name: "project", in: "path", required: true, schema: { type: "string" } },
            { name: "ids", in: "path", required: true, schema: { type: "array", items: { type: "integer" } } },
            { name: "q", in: "query", schema: { type: "string" } },
            { name: "tags", in: "query", schema: { type: "array", items: { type: "string" } } },
            { name: "filter", in: "query", style: "deepObject", schema: { type: "object" } },
          ],
          responses: { "204": { description: "ok" } },
        },
      },
    });
    const seed = Number(process.env["FC_SEED"] ?? Date.now() % 2 ** 31);
    const text = fc.string({ unit: "binary", minLength: 1, maxLength: 12 });
    const wellFormed = (value: string) => new URLSearchParams([["x", value]]).get("x")!;
    await fc.assert(
      fc.asyncProperty(
        text,
        fc.array(fc.integer(), { minLength: 1, maxLength: 4 }),
        text,
        fc.array(text, { maxLength: 3 }),
        fc.dictionary(fc.string({ unit: "grapheme-ascii", minLength: 1, maxLength: 6 }), text, { maxKeys: 3 }),
        async (project, ids, q, tags, filter) => {
          requests.length = 0;
          await run(connector, "roundTrip", { project, ids, q, tags, filter });
          const url = new URL(requests[0]!.url);
          const segments = url.pathname.split("/");
          expect(decodeURIComponent(segments[3]!)).toBe(wellFormed(project));
          expect(segments[5]!.split(",").map(Number)).toEqual(ids);
          expect(url.searchParams.get("q")).toBe(wellFormed(q));
          expect(url.searchParams.getAll("tags")).toEqual(tags.map(wellFormed));
          for (const [key, value] of Object.entries(filter))
            expect(url.searchParams.get(`filter[${key}]`)).toBe(wellFormed(value));
        },
      ),
      { seed, numRuns: 200 },
    );
  });
});
