/**
 * The {@link JournalStore} over a libSQL client (an `@libsql/client` Client or the embedded driver's own
 * connection): executions, rollback, retention and snippets, each in its own file, over one shared context
 * that migrates the schema on first use.
 */
import { executionRows } from "./execution-rows.js";
import type { JournalStore } from "./journal-store.js";
import { retentionRows } from "./retention-rows.js";
import { rollbackRows } from "./rollback-rows.js";
import { snippetRows } from "./snippet-rows.js";
import type { SqlClient } from "./sql-client.js";
import { createStoreContext } from "./store-context.js";

/** The journal store of runtime name `runtime` on `client`. */
export function createLibsqlJournalStore(options: {
  client: SqlClient;
  runtime: string;
  local: boolean;
  now: () => number;
}): JournalStore {
  const context = createStoreContext(options);
  return {
    runtime: options.runtime,
    ...executionRows(context),
    ...rollbackRows(context),
    ...retentionRows(context),
    ...snippetRows(context),
  };
}
