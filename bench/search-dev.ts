/**
 * Tuning aid for the search ranker: recall on the DEVELOPMENT half only (plus the development-only queries of
 * `search-data/dev-extra-*.tsv`), per class and corpus, and
 * (with `--misses`) each development query not found first, with its rank and the top hits. It never
 * ranks or prints a test-half query, so it can be run as often as tuning needs.
 *
 * Run: `node --import tsx bench/search-dev.ts [--misses] [--encoder | --vectors]` (`--encoder`: the
 * blended search with the sentence encoder, `--vectors`: with the word-vector model, instead of the lexical one).
 */
import { createCatalog } from "../src/connectors/search/catalog.js";
import { githubRestConnector, mcpConnectors, readQueries } from "./search.js";
import { blendedRanker } from "./blended-ranker.js";
import { sentenceEncoderEmbeddingModel } from "./sentence-encoder-embedding.js";
import type { Connector } from "../src/connectors/types.js";
import { wordVectorRanker } from "./word-vector-embedding.js";

type Rank = (query: string) => Promise<string[]>;
function lexical(catalog: ReturnType<typeof createCatalog>): Rank {
  return async (query) => catalog.search(query, { limit: 50 }).results.map((hit) => hit.path);
}
const vectors = process.argv.includes("--vectors");
const encoder = process.argv.includes("--encoder");
function rankerOf(connectors: Record<string, Connector>): Rank {
  if (encoder) return blendedRanker(connectors, sentenceEncoderEmbeddingModel()).rank;
  return vectors ? wordVectorRanker(connectors) : lexical(createCatalog({ connectors, snippets: [] }));
}
const mcp = rankerOf(mcpConnectors());
const rest = rankerOf({ github: await githubRestConnector() });
const original = [...readQueries("queries-mcp.tsv", "mcp"), ...readQueries("queries-github-rest.tsv", "github-rest")]
  .filter((query) => query.split === "dev")
  .map((query) => ({ ...query, set: "dev" }));
// Written for development only: every query of these files is development data, whatever its hash.
const extra = [
  ...readQueries("dev-extra-mcp.tsv", "mcp"),
  ...readQueries("dev-extra-github-rest.tsv", "github-rest"),
].map((query) => ({ ...query, set: "extra" }));
const queries = [...original, ...extra];
const showMisses = process.argv.includes("--misses");
const rows: Array<{ queryClass: string; corpus: string; set: string; rank: number }> = [];
for (const query of queries) {
  const paths = await (query.corpus === "mcp" ? mcp : rest)(query.text);
  const index = paths.findIndex((path) => query.wanted.includes(path));
  const rank = index === -1 ? Infinity : index + 1;
  rows.push({ queryClass: query.queryClass, corpus: query.corpus, set: query.set, rank });
  if (showMisses && rank !== 1) {
    process.stdout.write(
      `${String(rank).padStart(8)}  ${query.set} [${query.queryClass}] ${query.text}  → want ${query.wanted.join(",")}; got ${paths.slice(0, 3).join(", ")}\n`,
    );
  }
}
function line(label: string, ranks: number[]): string {
  const n = ranks.length;
  const at1 = ranks.filter((rank) => rank === 1).length / n;
  const at5 = ranks.filter((rank) => rank <= 5).length / n;
  const mrr = ranks.reduce((sum, rank) => sum + (rank === Infinity ? 0 : 1 / rank), 0) / n;
  return `${label.padEnd(14)} ${String(n).padStart(4)}  r@1 ${at1.toFixed(3)}  r@5 ${at5.toFixed(3)}  MRR ${mrr.toFixed(3)}`;
}
const out: string[] = [];
for (const set of ["dev", "extra"]) {
  const picked = rows.filter((row) => row.set === set);
  out.push(
    line(
      `${set} all`,
      picked.map((row) => row.rank),
    ),
  );
  for (const name of ["direct", "abbreviation", "verb", "domain"]) {
    out.push(
      line(
        `  ${name}`,
        picked.filter((row) => row.queryClass === name).map((row) => row.rank),
      ),
    );
  }
  for (const name of ["mcp", "github-rest"]) {
    out.push(
      line(
        `  ${name}`,
        picked.filter((row) => row.corpus === name).map((row) => row.rank),
      ),
    );
  }
}
out.push(
  line(
    "dev+extra",
    rows.map((row) => row.rank),
  ),
);
process.stdout.write(`${out.join("\n")}\n`);
