import { describe, expect, it } from "vitest";
import { testRuntime } from "./runtime-fixture.js";

/** A host fetch answering every request with `body` and echoing what it was sent in headers. */
function echoFetch(body: string, status = 200) {
  const sent: Array<{ url: string; init: RequestInit }> = [];
  const fetch = async (url: string, init: RequestInit): Promise<Response> => {
    sent.push({ url, init });
    return new Response(body, { status, headers: { "content-type": "text/plain", "x-b": "2", "x-a": "1" } });
  };
  return { fetch, sent };
}

describe("the sandbox fetch (Response-like object)", () => {
  it("reads headers like Headers, reads the body once, clones, and explains a body that is not JSON", async () => {
    const host = echoFetch("not json", 502);
    const runtime = testRuntime({ outbound: { fetch: host.fetch, allow: ["https://api.example.com"] } });
    const code = `async () => {
      const response = await fetch("https://api.example.com/x");
      const copy = response.clone();
      const names = [];
      response.headers.forEach((value, name) => names.push(name + "=" + value));
      const entries = [...response.headers].map(([name]) => name);
      let jsonError;
      try { await response.json(); } catch (error) { jsonError = error.name + ": " + error.message; }
      let again;
      try { await response.text(); } catch (error) { again = error.message; }
      return { ok: response.ok, status: response.status, has: response.headers.has("X-A"), missing: response.headers.get("nope"),
        names, entries, jsonError, again, used: response.bodyUsed, copy: await copy.text() };
    }`;
    const out = await runtime.execute({ code });
    expect(out).toMatchObject({
      status: "completed",
      result: {
        ok: false,
        status: 502,
        has: true,
        missing: null,
        names: ["content-type=text/plain", "x-a=1", "x-b=2"],
        entries: ["content-type", "x-a", "x-b"],
        again: "fetch: the response body was already read (use response.clone())",
        used: true,
        copy: "not json",
      },
    });
    expect((out as { result: { jsonError: string } }).result.jsonError).toBe(
      'SyntaxError: fetch: the response body of https://api.example.com/x (status 502) is not JSON: "not json"',
    );
  });

  it("accepts headers as an object, pairs or a forEach-able, and a { url } request", async () => {
    const host = echoFetch("{}");
    const runtime = testRuntime({ outbound: { fetch: host.fetch } });
    const code = `async () => {
      await fetch("https://a.example/1", { headers: { "X-One": "1" } });
      await fetch("https://a.example/2", { method: "put", headers: [["X-Two", "2"], ["x-two", "3"]], body: "b" });
      await fetch({ url: "https://a.example/3", method: "DELETE" });
      return true;
    }`;
    expect(await runtime.execute({ code })).toMatchObject({ status: "completed", result: true });
    expect(host.sent.map(({ url, init }) => [url, init.method, init.headers, init.body])).toEqual([
      ["https://a.example/1", "GET", { "x-one": "1" }, undefined],
      ["https://a.example/2", "PUT", { "x-two": "2, 3" }, "b"],
      ["https://a.example/3", "DELETE", {}, undefined],
    ]);
  });
});
