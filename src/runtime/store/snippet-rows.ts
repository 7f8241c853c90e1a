/**
 * The snippet operations of the libSQL store: save (or replace), list, delete. See `journal-store.ts`.
 */
import type { InStatement, SqlResult } from "./connection/sql-client.js";
import type { SnippetStore } from "../journal/journal-store.js";
import { parseSnippetRow } from "./record-validation.js";
import { RECORD_VERSION, type SnippetRecord } from "../journal/records.js";
import type { StoreContext } from "./store-context.js";

/** The snippet operations over `context`. */
export function snippetRows({ runtime, read, write }: StoreContext): SnippetStore {
  return {
    async saveSnippet(snippet) {
      await write([
        {
          sql: `INSERT OR REPLACE INTO codemode_snippets (runtime, name, record_version, description, code, connectors,
              input_schema, execution_id, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          args: [
            runtime,
            snippet.name,
            RECORD_VERSION,
            snippet.description ?? null,
            snippet.code,
            JSON.stringify(snippet.connectors),
            snippet.inputSchemaText ?? null,
            snippet.executionId,
            snippet.createdAt,
          ],
        },
      ]);
    },

    async snippets() {
      const [result] = await read([listSnippetsStatement(runtime)]);
      return snippetsOf(result);
    },

    async deleteSnippet(name) {
      const [result] = await write([
        { sql: "DELETE FROM codemode_snippets WHERE runtime = ? AND name = ? RETURNING name", args: [runtime, name] },
      ]);
      return (result?.rows.length ?? 0) === 1;
    },
  };
}

/** Reads every snippet of `runtime` (also appended to the batches that start or claim a pass). */
export function listSnippetsStatement(runtime: string): InStatement {
  return { sql: "SELECT * FROM codemode_snippets WHERE runtime = ? ORDER BY name", args: [runtime] };
}

/** The snippets in the result of {@link listSnippetsStatement}. */
export function snippetsOf(result: SqlResult | undefined): SnippetRecord[] {
  return (result?.rows ?? []).map(parseSnippetRow);
}
