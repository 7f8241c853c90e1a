import { describe, expect, it } from "vitest";
import { fetchFollowingRedirects, type RedirectHop } from "../../src/connectors/follow-redirects.js";
import { RedirectError } from "../../src/errors.js";

interface Sent {
  url: string;
  init: RequestInit;
}

/** A fetch answering from `routes` (URL → response factory) and recording what it was sent. */
function scripted(routes: Record<string, () => Response>): {
  fetch: (url: string, init: RequestInit) => Promise<Response>;
  sent: Sent[];
} {
  const sent: Sent[] = [];
  return {
    sent,
    fetch: async (url, init) => {
      sent.push({ url, init });
      const route = routes[url];
      return route === undefined ? new Response("missing", { status: 404 }) : route();
    },
  };
}

const moved = (status: number, location: string) => () => new Response(null, { status, headers: { location } });

describe("fetchFollowingRedirects", () => {
  it("asks for headers per hop, sends every hop with redirect: manual, and turns a POST into a GET without body headers on 302", async () => {
    const { fetch, sent } = scripted({
      "https://a.test/start": moved(302, "/next"),
      "https://a.test/next": moved(307, "https://b.test/final"),
      "https://b.test/final": () => new Response("done"),
    });
    const hops: RedirectHop[] = [];
    const followed = await fetchFollowingRedirects({
      fetch,
      url: new URL("https://a.test/start"),
      method: "POST",
      body: "{}",
      headersFor: (hop) => {
        hops.push(hop);
        return hop.url.origin === "https://a.test"
          ? { "content-type": "application/json", "x-api-key": "k" }
          : { "content-type": "application/json" };
      },
    });
    expect(await followed.response.text()).toBe("done");
    expect(followed).toMatchObject({ redirected: true });
    expect(followed.url.href).toBe("https://b.test/final");
    expect(sent.map(({ url, init }) => [url, init.method, init.body, init.headers, init.redirect])).toEqual([
      ["https://a.test/start", "POST", "{}", { "content-type": "application/json", "x-api-key": "k" }, "manual"],
      ["https://a.test/next", "GET", undefined, { "x-api-key": "k" }, "manual"],
      ["https://b.test/final", "GET", undefined, {}, "manual"],
    ]);
    expect(hops.map((hop) => hop.url.origin)).toEqual(["https://a.test", "https://a.test", "https://b.test"]);
  });

  it("resends method and body on 307/308", async () => {
    const { fetch, sent } = scripted({
      "https://a.test/x": moved(308, "https://a.test/y"),
      "https://a.test/y": () => new Response("ok"),
    });
    await fetchFollowingRedirects({
      fetch,
      url: new URL("https://a.test/x"),
      method: "PUT",
      body: "b",
      headersFor: () => ({ "content-type": "text/plain" }),
    });
    expect(sent.map(({ init }) => [init.method, init.body, init.headers])).toEqual([
      ["PUT", "b", { "content-type": "text/plain" }],
      ["PUT", "b", { "content-type": "text/plain" }],
    ]);
  });

  it("refuses a hop the caller refuses, a non-http(s) target and a redirect loop, without sending it", async () => {
    const { fetch, sent } = scripted({
      "https://a.test/away": moved(301, "https://evil.test/"),
      "https://a.test/file": moved(302, "file:///etc/passwd"),
    });
    const refuseHop = (next: URL) => (next.origin === "https://a.test" ? undefined : `no ${next.origin}`);
    await expect(
      fetchFollowingRedirects({
        fetch,
        url: new URL("https://a.test/away"),
        method: "GET",
        headersFor: () => ({}),
        refuseHop,
      }),
    ).rejects.toThrow(new RedirectError("no https://evil.test"));
    await expect(
      fetchFollowingRedirects({ fetch, url: new URL("https://a.test/file"), method: "GET", headersFor: () => ({}) }),
    ).rejects.toThrow(/file: URL/);
    expect(sent.map(({ url }) => url)).toEqual(["https://a.test/away", "https://a.test/file"]);
    const loop = scripted({ "https://a.test/loop": moved(302, "/loop") });
    await expect(
      fetchFollowingRedirects({
        fetch: loop.fetch,
        url: new URL("https://a.test/loop"),
        method: "GET",
        headersFor: () => ({}),
        maxRedirects: 3,
      }),
    ).rejects.toThrow(/more than 3 redirects/);
    expect(loop.sent).toHaveLength(4);
  });

  it("returns a 3xx without Location as the final response", async () => {
    const { fetch } = scripted({ "https://a.test/n": () => new Response(null, { status: 304 }) });
    const followed = await fetchFollowingRedirects({
      fetch,
      url: new URL("https://a.test/n"),
      method: "GET",
      headersFor: () => ({}),
    });
    expect([followed.response.status, followed.redirected]).toEqual([304, false]);
  });
});
