/**
 * The {@link JournalStore} over a libSQL client (an `@libsql/client` Client or the embedded driver's own
 * connection): executions, rollback, retention, snippets and search vectors, each in its own file, over one
 * shared context that migrates the schema on first use.
 */
import { embeddingRows } from "./embedding-rows.js";
import { executionRows } from "./execution-rows.js";
import type { JournalStore } from "../journal/journal-store.js";
import { retentionRows } from "./retention-rows.js";
import { rollbackRows } from "./rollback-rows.js";
import { snippetRows } from "./snippet-rows.js";
import type { SqlClient } from "./connection/sql-client.js";
import { createStoreContext } from "./store-context.js";

/** The journal store of runtime name `runtime` on `client`; `close()` closes the client when `owned`. */
export function createLibsqlJournalStore(options: {
  client: SqlClient;
  runtime: string;
  local: boolean;
  now: () => number;
  owned?: boolean;
  /** Whether the database does not exist yet: reads find nothing and create nothing. */
  missing?: (() => boolean) | undefined;
}): JournalStore {
  const context = createStoreContext(options);
  return {
    runtime: options.runtime,
    close: () => {
      if (options.owned === true) options.client.close();
    },
    ...executionRows(context),
    ...rollbackRows(context),
    ...retentionRows(context),
    ...snippetRows(context),
    ...embeddingRows(context, options.now),
  };
}
