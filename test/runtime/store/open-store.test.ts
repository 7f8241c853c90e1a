import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { afterEach, describe, expect, it } from "vitest";
import { LocalSqliteClient } from "../../../src/runtime/store/local-sqlite-client.js";
import { localDatabasePath, openStore } from "../../../src/runtime/store/open-store.js";

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("localDatabasePath", () => {
  it.each([
    ["file:.codemode/codemode.db", ".codemode/codemode.db"],
    ["file:/tmp/a.db", "/tmp/a.db"],
    ["file:///tmp/a.db", "/tmp/a.db"],
    [":memory:", ":memory:"],
    ["file::memory:", ":memory:"],
    ["file:/tmp/my%20db.db", "/tmp/my db.db"],
    ["file:/tmp/my db.db", "/tmp/my db.db"],
  ])("opens %s itself", (url, path) => {
    expect(localDatabasePath(url)).toBe(path);
  });

  it.each(["libsql://db.turso.io", "https://db.turso.io", "ws://127.0.0.1:8080", "file://host/a.db", "file:a.db?mode=ro", "file:", "file:/tmp/bad%zz.db"])(
    "leaves %s to @libsql/client",
    (url) => {
      expect(localDatabasePath(url)).toBeUndefined();
    },
  );
});

describe("openStore", () => {
  it("opens a file URL on the embedded driver, creating its folder", async () => {
    const folder = mkdtempSync(join(tmpdir(), "codemode-open-store-"));
    folders.push(folder);
    const opened = openStore({ url: `file:${join(folder, "nested", "db.sqlite")}` });
    try {
      expect(opened.client).toBeInstanceOf(LocalSqliteClient);
      expect(opened).toMatchObject({ owned: true, local: true });
      await opened.client.execute("CREATE TABLE x (a)");
      expect(existsSync(join(folder, "nested", "db.sqlite"))).toBe(true);
    } finally {
      opened.client.close();
    }
  });

  it("keeps a caller's client as it is and does not own it", () => {
    const client = createClient({ url: ":memory:" });
    try {
      expect(openStore(client)).toEqual({ client, owned: false, local: true });
    } finally {
      client.close();
    }
  });

  it("gives remote URLs an @libsql/client Client", () => {
    const opened = openStore({ url: "http://127.0.0.1:9", authToken: "t" });
    try {
      expect(opened.client).not.toBeInstanceOf(LocalSqliteClient);
      expect(opened).toMatchObject({ owned: true, local: false });
    } finally {
      opened.client.close();
    }
  });
});
