/**
 * A remote store imports the one transport of `@libsql/client` its URL needs; `libsql:` goes over HTTPS
 * there as through the client's main entry, so the transport in use does not change.
 */
import { createClient } from "@libsql/client";
import { createClient as createHttpClient } from "@libsql/client/http";
import { describe, expect, it } from "vitest";
import { clientEntryFor } from "../../../../src/runtime/store/connection/connect-store.js";

describe("clientEntryFor", () => {
  it.each([
    ["libsql://db-org.turso.io", "@libsql/client/http"],
    ["LIBSQL://db-org.turso.io", "@libsql/client/http"],
    ["https://db-org.turso.io", "@libsql/client/http"],
    ["http://127.0.0.1:8080", "@libsql/client/http"],
    ["wss://db-org.turso.io", "@libsql/client/ws"],
    ["ws://127.0.0.1:8080", "@libsql/client/ws"],
    ["file:/tmp/a.db?mode=ro", "@libsql/client"],
    ["not a url", "@libsql/client"],
  ])("%s → %s", (url, entry) => {
    expect(clientEntryFor(url, false)).toBe(entry);
  });

  it("a local file: URL keeps the main entry (the embedded driver)", () => {
    expect(clientEntryFor("file:/tmp/a.db?mode=ro", true)).toBe("@libsql/client");
  });

  it("the main entry also sends libsql: over HTTP (so choosing the http entry changes nothing)", () => {
    const main = createClient({ url: "libsql://db-org.turso.io" });
    const http = createHttpClient({ url: "libsql://db-org.turso.io" });
    expect(main.protocol).toBe("http");
    expect(http.protocol).toBe("http");
    main.close();
    http.close();
  });
});
