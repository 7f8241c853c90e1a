/**
 * What a store URL resolves to before anything is opened: the driver that
 * opens it, the key its connection is shared under in this process, and where
 * the configuration came from (so an error can name the variable to fix).
 */

/** Where a store configuration came from. */
export type StoreSource = "option" | "CODEMODE_DATABASE_URL" | "TURSO_DATABASE_URL" | "default";

/** A store the runtime opens itself. */
export type StoreTarget =
  | {
      /** A `file:` path or `:memory:` on the embedded driver (`libsql`, with cached statements). */
      kind: "embedded";
      /** Absolute file path, or `:memory:`. */
      path: string;
      url: string;
      source: StoreSource;
      /** Only the default location's folder is created; an explicit path's folder must exist. */
      createFolder: boolean;
      /** Connections are shared per key; `undefined` (`:memory:`): every runtime has its own database. */
      key: string | undefined;
    }
  | {
      /** A remote URL (or a `file:` URL with parameters) on `@libsql/client`. */
      kind: "client";
      url: string;
      authToken: string | undefined;
      /** A `file:` URL: busy timeout and one connection apply. */
      local: boolean;
      source: StoreSource;
      /** How long one request may take (`store-deadline.ts`). */
      requestTimeoutMs: number;
      /** The URL, token and deadline. */
      key: string;
    };
