import { describe, expect, it } from "vitest";
import {
  boundQuery,
  createSearchIndex,
  displayScore,
  MAX_QUERY_TERMS,
  MAX_TERM_CHARS,
  normaliseTerm,
  tokenize,
  type SearchDocument,
} from "../../../src/connectors/search/search-index.js";
import { githubOpenApiText } from "../fixtures/github-openapi.js";
import { methodDocument } from "../fixtures/search-document.js";

describe("search terms", () => {
  it("split names on _, -, . and camelCase", () => {
    expect(tokenize("list_pullRequests-forRepo.v2")).toEqual(["list", "pull", "requests", "for", "repo", "v2"]);
    expect(tokenize("getHTTPResponse")).toEqual(["get", "http", "response"]);
    expect(tokenize("list PRs and URLs")).toEqual(["list", "pr", "and", "url"]);
  });

  it("fold plurals and abbreviations and drop stop words", () => {
    expect(normaliseTerm("issues")).toBe("issue");
    expect(normaliseTerm("repositories")).toBe("repo");
    expect(normaliseTerm("organization")).toBe("org");
    expect(normaliseTerm("status")).toBe("status");
    expect(normaliseTerm("the")).toBeNull();
  });
});

describe("scores", () => {
  it("are shown with two significant digits, whole numbers from 10 up", () => {
    expect(displayScore(90.42)).toBe(90);
    expect(displayScore(123.456)).toBe(123);
    expect(displayScore(10.5)).toBe(11);
    expect(displayScore(4.567)).toBe(4.6);
    expect(displayScore(0.01234)).toBe(0.012);
    expect(displayScore(0)).toBe(0);
  });

  it("rank on the unrounded score, not on the rounded one (then by path)", () => {
    const doc = methodDocument;
    // alpha's longer description scores slightly lower; both round to the same shown score.
    const index = createSearchIndex([
      doc("alpha.send_email", "Send an email to a list. Attachments allowed."),
      doc("zeta.send_email", "Send an email to a list."),
      doc("mid.other", "Unrelated."),
    ]);
    const [first, second] = index.search("send email").results;
    expect(first!.score).toBe(second!.score);
    expect([first!.path, second!.path]).toEqual(["zeta.send_email", "alpha.send_email"]);
  });
});

/** Every operation of GitHub's REST description as a search document (summary first, as connectors describe them). */
function githubDocuments(): SearchDocument[] {
  const document = JSON.parse(githubOpenApiText()) as {
    paths: Record<
      string,
      Record<
        string,
        { operationId?: string; summary?: string; description?: string; parameters?: Array<{ name?: string }> }
      >
    >;
  };
  const documents: SearchDocument[] = [];
  for (const operations of Object.values(document.paths)) {
    for (const operation of Object.values(operations)) {
      if (typeof operation !== "object" || operation.operationId === undefined) continue;
      const method = operation.operationId.replace(/[/-]/g, "_");
      documents.push({
        path: `github.${method}`,
        connector: "github",
        method,
        kind: "method",
        description: `${operation.summary ?? ""}\n\n${operation.description ?? ""}`.trim(),
        params: (operation.parameters ?? []).flatMap((parameter) =>
          parameter.name === undefined ? [] : [parameter.name],
        ),
      });
    }
  }
  return documents;
}

describe("ranking on a real catalog (GitHub REST, 1,200+ operations)", () => {
  const index = createSearchIndex(githubDocuments());
  const cases: Array<[query: string, expected: string]> = [
    ["create an issue", "issues_create"],
    ["list pull requests", "pulls_list"],
    ["merge a pull request", "pulls_merge"],
    ["get file contents of a repository", "repos_get_content"],
    ["add labels to an issue", "issues_add_labels"],
    ["create a release", "repos_create_release"],
    ["get the authenticated user", "users_get_authenticated"],
    ["search code", "search_code"],
    ["list commits", "repos_list_commits"],
    ["get a repository", "repos_get"],
    ["fork a repository", "repos_create_fork"],
    ["list organization members", "orgs_list_members"],
    ["create a webhook for a repository", "repos_create_webhook"],
    ["list workflow runs", "actions_list_workflow_runs"],
  ];

  it.each(cases)("%s → %s in the default results", (query, expected) => {
    const methods = index.search(query).results.map((result) => result.method);
    expect(methods).toContain(expected);
  });

  it("puts most expected operations first", () => {
    const first = cases.filter(([query, expected]) => index.search(query).results[0]?.method === expected).length;
    expect(first).toBeGreaterThanOrEqual(9);
  });
});

describe("query bounds (the program controls the query)", () => {
  it("search the first distinct words, each cut short, of the query's first characters", () => {
    const many = Array.from({ length: 300_000 }, (_, i) => `w${i}`).join(" ");
    const words = boundQuery(many).split(" ");
    expect(words).toHaveLength(MAX_QUERY_TERMS);
    expect(words.slice(0, 3)).toEqual(["w0", "w1", "w2"]);
    expect(boundQuery("p".repeat(40_000))).toBe("p".repeat(MAX_TERM_CHARS));
    expect(boundQuery("send send  email send")).toBe("send email");
  });

  it("still rank the wanted method first when the words that matter come first", () => {
    const index = createSearchIndex([
      {
        path: "mail.send_email",
        connector: "mail",
        method: "send_email",
        kind: "method",
        params: [],
        description: "Send an email.",
      },
      {
        path: "mail.list_inbox",
        connector: "mail",
        method: "list_inbox",
        kind: "method",
        params: [],
        description: "List the inbox.",
      },
    ]);
    const hostile = `send email ${"zzzzzzzzzzzzz ".repeat(100_000)}`;
    expect(index.search(hostile).results[0]?.path).toBe("mail.send_email");
  });
});

describe("vocabulary gaps (stems, short forms, synonyms from the thesaurus)", () => {
  const doc = methodDocument;
  const first = (documents: SearchDocument[], query: string): string | undefined =>
    createSearchIndex(documents).search(query).results[0]?.path;

  it("compare stems, so another form of the word finds the method", () => {
    const documents = [doc("a.archive_issue", "Archive an issue."), doc("b.create_issue", "Create an issue.")];
    expect(first(documents, "creating issues")).toBe("b.create_issue");
  });

  it("read short forms as the words they stand for, in names and in queries", () => {
    const documents = [doc("a.list_commits", "List commits."), doc("b.list_prs", "List open ones.")];
    expect(first(documents, "list pull requests")).toBe("b.list_prs");
    const spelled = [doc("a.list_commits", "List commits."), doc("b.list_pull_requests", "List pull requests.")];
    expect(first(spelled, "list PRs")).toBe("b.list_pull_requests");
  });

  it("search a verb's synonyms (remove → delete) and a domain word's (folder → directory)", () => {
    const repositories = [
      doc("a.archive_repository", "Archive a repository."),
      doc("b.delete_repository", "Delete a repository."),
    ];
    expect(first(repositories, "erase a repository")).toBe("b.delete_repository");
    const files = [doc("a.create_file", "Create a file."), doc("b.create_directory", "Create a directory.")];
    expect(first(files, "make a new folder")).toBe("b.create_directory");
  });

  it("rank the query's own word above a synonym", () => {
    const documents = [
      doc("a.delete_repository", "Delete a repository."),
      doc("b.remove_repository", "Remove a repository."),
    ];
    expect(first(documents, "remove repository")).toBe("b.remove_repository");
  });

  it("prefer the name made of the query's words over a longer name that also contains them", () => {
    const documents = [
      doc("a.pull_request_stacks_list", "List pull request stacks of a repository. Pull requests in a stack."),
      doc("b.pulls_list", "List pull requests."),
    ];
    expect(first(documents, "list pull requests")).toBe("b.pulls_list");
  });

  it("prefer the name that uses the query's word as written when stems tie (followers, not followed)", () => {
    const documents = [
      doc("a.users_list_followed", "List users of an account."),
      doc("b.users_list_followers", "List users of an account."),
    ];
    expect(first(documents, "followers of an account")).toBe("b.users_list_followers");
  });

  it("count a catalog word that extends the query's word (assign → assignees) as covering it", () => {
    const documents = [
      doc("a.issues_add_assignees", "Adds up to 10 assignees to an issue."),
      doc("b.issues_check_user_can_be_assigned", "Checks if a user has permission to be assigned to an issue."),
      doc("c.issues_get", "Get an issue."),
      doc("d.issues_list", "List issues."),
    ];
    const ranked = createSearchIndex(documents)
      .search("assign a user to an issue")
      .results.map((result) => result.path);
    expect(ranked.slice(0, 2)).toEqual(["b.issues_check_user_can_be_assigned", "a.issues_add_assignees"]);
  });

  it("read a reversing verb before a word as the un- operation (remove my star → unstar)", () => {
    const documents = [doc("a.repos_star", "Star a repository."), doc("b.repos_unstar", "Unstar a repository.")];
    expect(first(documents, "remove my star from a repository")).toBe("b.repos_unstar");
    expect(first(documents, "star a repository")).toBe("a.repos_star");
  });

  it("treat words that are Object.prototype members as plain words", () => {
    const index = createSearchIndex([doc("a.build_constructor", "Build a constructor.")]);
    expect(index.search("constructor __proto__ toString").results[0]?.path).toBe("a.build_constructor");
  });
});
