/**
 * The app's tools: plain AI SDK tools over a pretend GitHub. The chat routes them to the codemode tool
 * (`experimental_toolCallers` in app/api/chat/route.ts), so programs call them as `tools.merge_pull_request(…)`.
 * Their answers are deterministic, so a replayed pass sees the same values; what they change (a merge, a close)
 * is written to `example_github_log` in the example's database, where you can see that an approved merge
 * happened exactly once (`SELECT * FROM example_github_log`).
 */
import { type ToolApprovalConfiguration, tool } from "ai";
import { z } from "zod";
import { getDatabase } from "./database.ts";

const pullRequests = [
  { number: 42, title: "Fix the login redirect loop", author: "ana" },
  { number: 43, title: "Bump dependencies", author: "renovate" },
  { number: 44, title: "Add dark mode", author: "li" },
];

/** How long reading one pull request takes: slow enough to watch the calls arrive in the chat. */
const REVIEW_DELAY_MS = Number(process.env.REVIEW_DELAY_MS ?? 700);

/** How long listing takes (0: at once; the e2e test of a long run sets it so the run lasts a few seconds). */
const LIST_DELAY_MS = Number(process.env.LIST_DELAY_MS ?? 0);

/** Tables created by this process (once each; a failed creation is tried again by the next write). */
const tablesReady = new Map<string, Promise<unknown>>();

/** Inserts one row into `table`, created first by `ddl` if this process has not yet done so. */
async function appendRow(table: string, ddl: string, insert: { sql: string; args: Array<string | number> }) {
  const db = getDatabase();
  let ready = tablesReady.get(table);
  if (ready === undefined) {
    ready = db.execute(ddl).catch((error: unknown) => {
      tablesReady.delete(table);
      throw error;
    });
    tablesReady.set(table, ready);
  }
  await ready;
  await db.execute(insert);
}

/** Records what a tool did to the pretend repository. */
async function logAction(action: "merged" | "closed", repo: string, number: number): Promise<void> {
  await appendRow(
    "example_github_log",
    `CREATE TABLE IF NOT EXISTS example_github_log (
      id INTEGER PRIMARY KEY, action TEXT NOT NULL, repo TEXT NOT NULL, number INTEGER NOT NULL, at INTEGER NOT NULL
    )`,
    {
      sql: "INSERT INTO example_github_log (action, repo, number, at) VALUES (?, ?, ?, ?)",
      args: [action, repo, number, Date.now()],
    },
  );
}

function openPullRequest(repo: string, number: number) {
  const pr = pullRequests.find((candidate) => candidate.number === number);
  if (pr === undefined) throw new Error(`${repo} has no open pull request #${number}`);
  return pr;
}

const repoNumber = z.object({ repo: z.string().describe("owner/name"), number: z.number().int() });

/** The GitHub tools, under the names programs call them by. */
export const githubTools = {
  list_pull_requests: tool({
    description: "List the open pull requests of a repository.",
    inputSchema: z.object({ repo: z.string().describe("owner/name") }),
    execute: async ({ repo }) => {
      if (LIST_DELAY_MS > 0) await new Promise((resolve) => setTimeout(resolve, LIST_DELAY_MS));
      return pullRequests.map((pr) => ({ ...pr, repo }));
    },
  }),
  get_pull_request: tool({
    description: "Read one pull request with its checks (slow).",
    inputSchema: repoNumber,
    execute: async ({ repo, number }) => {
      await new Promise((resolve) => setTimeout(resolve, REVIEW_DELAY_MS));
      return { ...openPullRequest(repo, number), repo, checks: number % 2 === 0 ? "passing" : "failing" };
    },
  }),
  merge_pull_request: tool({
    description: "Merge a pull request. Needs approval.",
    inputSchema: repoNumber,
    execute: async ({ repo, number }) => {
      openPullRequest(repo, number);
      await logAction("merged", repo, number);
      return { repo, number, merged: true, sha: `c0ffee${number}` };
    },
  }),
  close_pull_request: tool({
    description: "Close a pull request without merging it.",
    inputSchema: repoNumber,
    execute: async ({ repo, number }) => {
      await logAction("closed", repo, number);
      return { repo, number, closed: true };
    },
  }),
};

/** Records a sponsorship payment (`SELECT * FROM example_sponsor_log`): the amount that was actually paid. */
async function logSponsorship(login: string, amount: number): Promise<void> {
  await appendRow(
    "example_sponsor_log",
    `CREATE TABLE IF NOT EXISTS example_sponsor_log (
      id INTEGER PRIMARY KEY, login TEXT NOT NULL, amount INTEGER NOT NULL, at INTEGER NOT NULL
    )`,
    { sql: "INSERT INTO example_sponsor_log (login, amount, at) VALUES (?, ?, ?)", args: [login, amount, Date.now()] },
  );
}

/**
 * GitHub Sponsors: a one-time payment to a contributor, the namespace `sponsors` of programs (lib/codemode.ts makes
 * it need approval and lets the approver change the amount: `editable: true`).
 */
export const sponsorTools = {
  sponsor_contributor: tool({
    description: "Send a one-time GitHub Sponsors payment to a contributor, in whole US dollars. Needs approval.",
    inputSchema: z.object({
      login: z.string().describe("the contributor's GitHub login"),
      amount: z.number().int().positive().max(1000).describe("US dollars"),
    }),
    execute: async ({ login, amount }) => {
      await logSponsorship(login, amount);
      return { login, amount, receipt: `sp_${login}_${amount}` };
    },
  }),
};

/**
 * Which calls need a person: AI SDK 7's `toolApproval` (the tools' own `needsApproval` is deprecated). Given to
 * `streamText` for direct calls and to the codemode runtime for calls from programs — a tool caller is never
 * handed the generation's `toolApproval` — so a tool has one policy on both paths.
 */
export const toolApproval = {
  merge_pull_request: "user-approval",
} satisfies ToolApprovalConfiguration<typeof githubTools, unknown>;
