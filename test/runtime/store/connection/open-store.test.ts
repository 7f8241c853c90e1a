import { existsSync } from "node:fs";
import { join } from "node:path";
import { createClient } from "@libsql/client";
import { describe, expect, it } from "vitest";
import { InvalidOptionError } from "../../../../src/errors.js";
import { createDurableRuntime } from "../../../../src/runtime/durable-runtime.js";
import {
  defaultStoreOptions,
  localDatabasePath,
  openStore,
} from "../../../../src/runtime/store/connection/open-store.js";
import { StoreConfigurationError } from "../../../../src/errors/store-configuration-error.js";
import { tempFolder } from "../../../support/temp-folder.js";
import { sharedExecutor } from "../../runtime-fixture.js";

function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}

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

  it.each([
    "libsql://db.turso.io",
    "https://db.turso.io",
    "ws://127.0.0.1:8080",
    "file://host/a.db",
    "file:a.db?mode=ro",
    "file:",
    "file:/tmp/bad%zz.db",
  ])("leaves %s to @libsql/client", (url) => {
    expect(localDatabasePath(url)).toBeUndefined();
  });
});

describe("store URLs no libSQL driver opens", () => {
  it.each([
    ["postgres://admin:hunter2@db.example.com/app", "a postgres: URL"],
    ["mysql://root@localhost/app", "a mysql: URL"],
    ["codemode.db", 'for a local file write "file:codemode.db"'],
  ])("refuses %s at construction with InvalidOptionError naming `store` and the accepted schemes", (store, got) => {
    const thrown = thrownBy(() => createDurableRuntime({ store, executor: sharedExecutor() }));
    expect(InvalidOptionError.isInstance(thrown)).toBe(true);
    expect((thrown as InvalidOptionError).path).toBe("store");
    const { message } = thrown as InvalidOptionError;
    expect(message).toContain("file:<path>, :memory:, libsql://…, http(s)://… or ws(s)://…");
    expect(message).toContain(got);
    // A URL may carry a password: the message shows the scheme only.
    expect(message).not.toContain("hunter2");
  });

  it("refuses the { url } form the same way", () => {
    const thrown = thrownBy(() =>
      createDurableRuntime({ store: { url: "postgres://h/db", authToken: "t" }, executor: sharedExecutor() }),
    );
    expect((thrown as InvalidOptionError).path).toBe("store");
  });

  it("names the environment variable a bad URL came from", () => {
    const thrown = thrownBy(() =>
      defaultStoreOptions({ TURSO_DATABASE_URL: "postgres://h/db", TURSO_AUTH_TOKEN: "t" }),
    );
    expect((thrown as InvalidOptionError).path).toBe("TURSO_DATABASE_URL");
    expect(
      (thrownBy(() => defaultStoreOptions({ CODEMODE_DATABASE_URL: "db.sqlite" })) as InvalidOptionError).path,
    ).toBe("CODEMODE_DATABASE_URL");
  });

  it("refuses a remote URL that does not parse", () => {
    const thrown = thrownBy(() => openStore({ url: "libsql://exa mple.turso.io" }));
    expect((thrown as InvalidOptionError).path).toBe("store");
  });
});

describe("openStore", () => {
  it("does no I/O until the first statement, then opens the file on the embedded driver", async () => {
    const folder = tempFolder("codemode-open-store-");
    const path = join(folder, "db.sqlite");
    const opened = openStore({ url: `file:${path}` });
    try {
      expect(opened).toMatchObject({ owned: true, local: true });
      expect(existsSync(path)).toBe(false);
      await opened.client.execute("CREATE TABLE x (a)");
      expect(existsSync(path)).toBe(true);
    } finally {
      opened.client.close();
    }
  });

  it("does not create the folder of an explicit path: the first statement fails with a configuration error", async () => {
    const folder = tempFolder("codemode-open-store-");
    const path = join(folder, "nested", "deeper", "db.sqlite");
    const opened = openStore({ url: `file:${path}` });
    try {
      const error = await opened.client.execute("SELECT 1").then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(StoreConfigurationError.isInstance(error)).toBe(true);
      expect((error as Error).message).toContain(`its folder ${join(folder, "nested", "deeper")} does not exist`);
      expect((error as Error).message).toContain("the store option");
      expect(existsSync(join(folder, "nested"))).toBe(false);
    } finally {
      opened.client.close();
    }
  });

  it("creates the default location's folder at the first statement, relative to the working directory", async () => {
    const folder = tempFolder("codemode-open-store-");
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const opened = openStore(defaultStoreOptions({}));
      expect(existsSync(join(folder, ".codemode"))).toBe(false);
      try {
        await opened.client.execute("SELECT 1");
        expect(existsSync(join(folder, ".codemode", "codemode.db"))).toBe(true);
      } finally {
        opened.client.close();
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it("creates the default folder for any file in it, and nothing above it", async () => {
    const folder = tempFolder("codemode-open-store-");
    const cwd = process.cwd();
    process.chdir(folder);
    try {
      const named = openStore({ url: "file:.codemode/app.db" });
      const nested = openStore({ url: "file:.codemode/deeper/app.db" });
      try {
        await named.client.execute("SELECT 1");
        expect(existsSync(join(folder, ".codemode", "app.db"))).toBe(true);
        await expect(nested.client.execute("SELECT 1")).rejects.toThrow("does not exist");
        expect(existsSync(join(folder, ".codemode", "deeper"))).toBe(false);
      } finally {
        named.client.close();
        nested.client.close();
      }
    } finally {
      process.chdir(cwd);
    }
  });

  it("uses a caller's client behind the request deadline, does not own it and never closes it", async () => {
    const client = createClient({ url: ":memory:" });
    try {
      const opened = openStore(client);
      expect(opened).toMatchObject({ owned: false, local: true });
      expect(opened.client.database).toBe(client);
      expect((await opened.client.execute("SELECT 1 AS one")).rows[0]).toMatchObject({ one: 1 });
      opened.client.close();
      expect(client.closed).toBe(false);
    } finally {
      client.close();
    }
  });

  it("opens remote URLs on @libsql/client at the first statement", async () => {
    const opened = openStore({ url: "http://127.0.0.1:9", authToken: "t" });
    try {
      expect(opened).toMatchObject({ owned: true, local: false });
      // Port 9 (discard) refuses: the failure is the transport's, seen only when a statement runs.
      await expect(opened.client.execute("SELECT 1")).rejects.toThrow();
    } finally {
      opened.client.close();
    }
  });
});
