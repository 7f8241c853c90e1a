import { tool } from "ai";
import { z } from "zod";

const pullRequests = [
  { number: 42, title: "Fix the login redirect loop", author: "ana" },
  { number: 43, title: "Bump dependencies", author: "renovate" },
  { number: 44, title: "Add dark mode", author: "li" },
];

/**
 * A small demo connector: reading is free, merging needs a human's approval.
 * Deterministic, so a replayed pass sees the same values.
 */
export const githubTools = {
  list_pull_requests: tool({
    description: "List the open pull requests of a repository.",
    inputSchema: z.object({ repo: z.string().describe("owner/name") }),
    execute: async ({ repo }) => pullRequests.map((pr) => ({ ...pr, repo })),
  }),
  merge_pull_request: tool({
    description: "Merge a pull request. Needs approval.",
    inputSchema: z.object({ repo: z.string().describe("owner/name"), number: z.number().int() }),
    needsApproval: true,
    execute: async ({ repo, number }) => {
      const pr = pullRequests.find((candidate) => candidate.number === number);
      if (pr === undefined) throw new Error(`${repo} has no open pull request #${number}`);
      return { repo, number, merged: true, sha: `c0ffee${number}` };
    },
  }),
};
