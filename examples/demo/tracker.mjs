// A small issue tracker kept in the same libSQL file as the codemode journal: real state,
// so the demo can show that the approved write happened exactly once.
import { createClient } from "@libsql/client";
import { tool } from "ai";
import { connector } from "ai-codemode";
import { z } from "zod";

const SEED_ISSUES = [
  { title: "Invoice PDF shows the wrong VAT rate", labels: ["billing", "bug"], state: "open", assignee: null },
  { title: "Card declined message is unreadable on mobile", labels: ["billing", "ux"], state: "open", assignee: null },
  { title: "Dark mode for the settings page", labels: ["ui"], state: "open", assignee: "grace" },
  { title: "Refund webhook retried forever", labels: ["billing", "bug"], state: "closed", assignee: "ada" },
];

/** Opens the tracker's table in `url` and, when `reset` is set, fills it with the seed issues. */
export async function openTracker({ url, reset = false }) {
  const db = createClient({ url });
  await db.execute("PRAGMA busy_timeout = 5000");
  await db.execute(`CREATE TABLE IF NOT EXISTS demo_issues (
    id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL, body TEXT NOT NULL DEFAULT '',
    labels TEXT NOT NULL, state TEXT NOT NULL, assignee TEXT, created_by_key TEXT UNIQUE)`);
  if (reset) {
    await db.batch(
      [
        "DELETE FROM demo_issues",
        "DELETE FROM sqlite_sequence WHERE name = 'demo_issues'",
        ...SEED_ISSUES.map((issue) => ({
          sql: "INSERT INTO demo_issues (title, labels, state, assignee) VALUES (?, ?, ?, ?)",
          args: [issue.title, JSON.stringify(issue.labels), issue.state, issue.assignee],
        })),
      ],
      "write",
    );
  }
  return db;
}

function toIssue(row) {
  return {
    id: Number(row.id),
    title: String(row.title),
    body: String(row.body),
    labels: JSON.parse(String(row.labels)),
    state: String(row.state),
    assignee: row.assignee === null ? null : String(row.assignee),
  };
}

/** Every issue, for checks after the run. */
export async function allIssues(db) {
  const { rows } = await db.execute("SELECT * FROM demo_issues ORDER BY id");
  return rows.map(toIssue);
}

/** The tracker as an AI SDK ToolSet wrapped in a connector: writes need approval and can be reverted. */
export function trackerConnector(db) {
  const tools = {
    list_issues: tool({
      description: "List issues in the tracker, optionally filtered by label and state.",
      inputSchema: z.object({
        label: z.string().optional().describe("Only issues carrying this label"),
        state: z.enum(["open", "closed"]).optional().describe("Only issues in this state"),
      }),
      outputSchema: z.array(
        z.object({
          id: z.number(),
          title: z.string(),
          labels: z.array(z.string()),
          state: z.string(),
          assignee: z.string().nullable(),
        }),
      ),
      execute: async ({ label, state }) => {
        const { rows } = await db.execute("SELECT * FROM demo_issues ORDER BY id");
        return rows
          .map(toIssue)
          .filter(
            (issue) =>
              (label === undefined || issue.labels.includes(label)) && (state === undefined || issue.state === state),
          )
          .map(({ body, ...issue }) => issue);
      },
    }),
    create_issue: tool({
      description: "Create a new issue. Needs human approval.",
      inputSchema: z.object({
        title: z.string().min(5).describe("Short summary"),
        body: z.string().default("").describe("Markdown description"),
        labels: z.array(z.string()).default([]),
        assignee: z.string().optional().describe("Login of the person to assign"),
      }),
      outputSchema: z.object({ id: z.number(), url: z.string() }),
      needsApproval: true,
      execute: async ({ title, body, labels, assignee }, { idempotencyKey }) => {
        // The idempotency key is stable across passes: a retried call cannot create a second issue.
        await db.execute({
          sql: `INSERT INTO demo_issues (title, body, labels, state, assignee, created_by_key) VALUES (?, ?, ?, 'open', ?, ?)
                ON CONFLICT(created_by_key) DO NOTHING`,
          args: [title, body, JSON.stringify(labels), assignee ?? null, idempotencyKey ?? null],
        });
        const { rows } = await db.execute({
          sql: "SELECT id FROM demo_issues WHERE created_by_key = ?",
          args: [idempotencyKey ?? null],
        });
        const id = Number(rows[0]?.id);
        return { id, url: `https://tracker.example/issues/${id}` };
      },
    }),
  };
  return connector(tools, {
    description: "The team's issue tracker",
    methods: {
      list_issues: { replay: "record" },
      create_issue: {
        revert: async (_args, result) => {
          await db.execute({ sql: "DELETE FROM demo_issues WHERE id = ?", args: [result.id] });
        },
      },
    },
  });
}
