/**
 * The search-vector cache of the libSQL store: vectors by embedding model and text hash, stored as
 * little-endian float32 bytes (libSQL's F32_BLOB layout). A row that does not read back as a vector of
 * its stated dimensions is left out (the caller embeds the text again and replaces it). See `journal-store.ts`.
 */
import type { InStatement, SqlRow } from "./connection/sql-client.js";
import type { EmbeddingStore, SearchVector } from "../journal/journal-store.js";
import type { StoreContext } from "./store-context.js";

/** Hashes per `IN (…)` list: far below SQLite's bound on parameters, so a 10,000-method catalog is 20 statements. */
export const MAX_HASHES_PER_STATEMENT = 500;

/** The vector's bytes as stored (a copy: a Float32Array may view part of a larger buffer). */
export function vectorBytes(vector: Float32Array): Uint8Array {
  const bytes = new Uint8Array(vector.length * 4);
  const view = new DataView(bytes.buffer);
  for (let index = 0; index < vector.length; index++) view.setFloat32(index * 4, vector[index]!, true);
  return bytes;
}

/** The vector of a row, or undefined when the row is not a vector of its stated dimensions. */
export function parseVectorRow(row: SqlRow): SearchVector | undefined {
  const { text_hash: textHash, dimensions, vector } = row;
  const bytes =
    vector instanceof ArrayBuffer ? new Uint8Array(vector) : vector instanceof Uint8Array ? vector : undefined;
  const size = typeof dimensions === "bigint" ? Number(dimensions) : dimensions;
  if (
    typeof textHash !== "string" ||
    bytes === undefined ||
    typeof size !== "number" ||
    size < 1 ||
    bytes.byteLength !== size * 4
  ) {
    return undefined;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const parsed = new Float32Array(size);
  for (let index = 0; index < size; index++) parsed[index] = view.getFloat32(index * 4, true);
  return parsed.every(Number.isFinite) ? { textHash, vector: parsed } : undefined;
}

function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += MAX_HASHES_PER_STATEMENT)
    out.push(items.slice(start, start + MAX_HASHES_PER_STATEMENT));
  return out;
}

/** The search-vector operations over `context` (not scoped by runtime name: vectors depend on model and text only). */
export function embeddingRows({ read, write }: StoreContext, now: () => number): EmbeddingStore {
  return {
    async searchVectors(model, textHashes) {
      if (textHashes.length === 0) return [];
      const statements: InStatement[] = chunks([...new Set(textHashes)]).map((hashes) => ({
        sql: `SELECT text_hash, dimensions, vector FROM codemode_search_vectors
          WHERE model = ? AND text_hash IN (${hashes.map(() => "?").join(", ")})`,
        args: [model, ...hashes],
      }));
      const results = await read(statements);
      return results.flatMap((result) => result.rows.flatMap((row) => parseVectorRow(row) ?? []));
    },

    async saveSearchVectors(model, vectors) {
      if (vectors.length === 0) return;
      const createdAt = now();
      await write(
        vectors.map(({ textHash, vector }) => ({
          sql: `INSERT OR REPLACE INTO codemode_search_vectors (model, text_hash, dimensions, vector, created_at)
          VALUES (?, ?, ?, ?, ?)`,
          args: [model, textHash, vector.length, vectorBytes(vector), createdAt],
        })),
      );
    },
  };
}
