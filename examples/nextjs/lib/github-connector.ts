import { tool } from "ai";
import { connector } from "ai-codemode";
import { z } from "zod";

const pullRequests = [
  { number: 42, title: "Fix the login redirect loop", author: "ana" },
  { number: 43, title: "Bump dependencies", author: "renovate" },
  { number: 44, title: "Add dark mode", author: "li" },
];

/** How long reading one pull request takes: slow enough to watch the calls arrive in the chat. */
const REVIEW_DELAY_MS = Number(process.env.REVIEW_DELAY_MS ?? 700);

/** Plain AI SDK tools. Deterministic, so a replayed pass sees the same values. */
const githubTools = {
  get_pull_request: tool({
    description: "Read one pull request with its checks (slow).",
    inputSchema: z.object({ repo: z.string().describe("owner/name"), number: z.number().int() }),
    execute: async ({ repo, number }) => {
      await new Promise((resolve) => setTimeout(resolve, REVIEW_DELAY_MS));
      const pr = pullRequests.find((candidate) => candidate.number === number);
      if (pr === undefined) throw new Error(`${repo} has no open pull request #${number}`);
      return { ...pr, repo, checks: number % 2 === 0 ? "passing" : "failing" };
    },
  }),
  close_pull_request: tool({
    description: "Close a pull request without merging it.",
    inputSchema: z.object({ repo: z.string().describe("owner/name"), number: z.number().int() }),
    execute: async ({ repo, number }) => ({ repo, number, closed: true }),
  }),
  list_pull_requests: tool({
    description: "List the open pull requests of a repository.",
    inputSchema: z.object({ repo: z.string().describe("owner/name") }),
    execute: async ({ repo }) => pullRequests.map((pr) => ({ ...pr, repo })),
  }),
  merge_pull_request: tool({
    description: "Merge a pull request. Needs approval.",
    inputSchema: z.object({ repo: z.string().describe("owner/name"), number: z.number().int() }),
    execute: async ({ repo, number }) => {
      const pr = pullRequests.find((candidate) => candidate.number === number);
      if (pr === undefined) throw new Error(`${repo} has no open pull request #${number}`);
      return { repo, number, merged: true, sha: `c0ffee${number}` };
    },
  }),
};

/**
 * The `github` namespace: reading is free, merging needs a human's approval (set on the
 * connector, since the AI SDK deprecates tool-level `needsApproval`).
 */
export const github = connector(githubTools, { methods: { merge_pull_request: { requiresApproval: true } } });
