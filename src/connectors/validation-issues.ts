/**
 * Normalises validation failures from zod, Standard Schema validators and the
 * JSON Schema validator into one issue shape, and formats them like a compiler
 * error: where, what was expected, what was given.
 */

/** One problem found in a method's arguments. */
export interface ValidationIssue {
  /** Path inside the arguments, e.g. `["labels", 0]`; empty for the arguments object itself. */
  path: Array<string | number>;
  /** What the schema wanted at that path, e.g. `string` or `"open" | "closed"`. */
  expected?: string;
  /** A free-form explanation when `expected` alone does not say it. */
  message: string;
}

const MAX_ISSUES = 8;
const MAX_VALUE_CHARS = 60;

/** Renders a path as `labels[0].name`, or `(arguments)` for the root. */
export function formatIssuePath(path: ReadonlyArray<string | number>): string {
  if (path.length === 0) return "(arguments)";
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][\w$]*$/.test(segment)) out += out === "" ? segment : `.${segment}`;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** Short description of a value for an error message: `undefined`, `number 3`, `string "x"`. */
export function describeValue(value: unknown): string {
  if (value === undefined) return "undefined";
  if (value === null) return "null";
  if (Array.isArray(value)) return `array (length ${value.length})`;
  if (typeof value === "object") return "object";
  if (typeof value === "bigint") return `bigint ${value}n`;
  if (typeof value === "function") return "function";
  const text = typeof value === "string" ? JSON.stringify(value) : String(value);
  const shown = text.length > MAX_VALUE_CHARS ? `${text.slice(0, MAX_VALUE_CHARS)}…` : text;
  return `${typeof value} ${shown}`;
}

/** Reads the value at `path` inside `root`, or `undefined`. */
function valueAtPath(root: unknown, path: ReadonlyArray<string | number>): unknown {
  let current: unknown = root;
  for (const segment of path) {
    if (current === null || typeof current !== "object") return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}

/**
 * Formats issues as a multi-line message a model can correct itself from.
 *
 * @example
 * Invalid arguments for github.create_issue(input):
 *   - title: expected string, got undefined
 *   - labels[0]: expected string, got number 3
 * Expected input: { owner: string; title: string; labels?: string[] }
 */
export function formatValidationIssues({
  label,
  issues,
  value,
  expectedType,
}: {
  label: string;
  issues: ValidationIssue[];
  value: unknown;
  expectedType?: string;
}): string {
  const lines = [`Invalid arguments for ${label}(input):`];
  for (const issue of issues.slice(0, MAX_ISSUES)) {
    const where = formatIssuePath(issue.path);
    const got = describeValue(valueAtPath(value, issue.path));
    lines.push(
      issue.expected === undefined
        ? `  - ${where}: ${issue.message} (got ${got})`
        : `  - ${where}: expected ${issue.expected}, got ${got}${issue.message === "" ? "" : ` (${issue.message})`}`,
    );
  }
  if (issues.length > MAX_ISSUES) lines.push(`  … and ${issues.length - MAX_ISSUES} more`);
  if (expectedType !== undefined) lines.push(`Expected input: ${expectedType}`);
  return lines.join("\n");
}

type PathSegment = PropertyKey | { key: PropertyKey };

function normalisePath(path: unknown): Array<string | number> {
  if (!Array.isArray(path)) return [];
  return (path as PathSegment[]).map((segment) => {
    const key = typeof segment === "object" && segment !== null ? segment.key : segment;
    return typeof key === "number" ? key : String(key);
  });
}

/** Issues from a zod 4 error, a zod 3 error, or Standard Schema issues (`{ message, path }[]`). */
export function issuesFromSchemaError(cause: unknown): ValidationIssue[] | undefined {
  const raw: unknown = Array.isArray(cause)
    ? cause
    : typeof cause === "object" && cause !== null && "issues" in cause
      ? cause.issues
      : undefined;
  if (!Array.isArray(raw)) return undefined;
  const issues: ValidationIssue[] = [];
  for (const item of raw as Array<Record<string, unknown>>) {
    if (typeof item !== "object" || item === null) continue;
    const path = normalisePath(item["path"]);
    const message = typeof item["message"] === "string" ? item["message"] : "invalid value";
    const code = item["code"];
    if (code === "invalid_type" && typeof item["expected"] === "string") {
      issues.push({ path, expected: item["expected"], message: "" });
    } else if (code === "invalid_value" && Array.isArray(item["values"])) {
      issues.push({ path, expected: item["values"].map((v) => JSON.stringify(v)).join(" | "), message: "" });
    } else if (code === "unrecognized_keys" && Array.isArray(item["keys"])) {
      for (const key of item["keys"])
        issues.push({ path: [...path, String(key)], message: "unknown property, remove it" });
    } else {
      issues.push({ path, message });
    }
  }
  return issues;
}

/** One error unit of `@cfworker/json-schema`. */
export interface JsonSchemaOutputUnit {
  keyword: string;
  keywordLocation: string;
  instanceLocation: string;
  error: string;
}

function pointerToPath(pointer: string): Array<string | number> {
  const body = pointer.replace(/^#\/?/, "");
  if (body === "") return [];
  return body.split("/").map((part) => {
    const key = decodeURIComponent(part).replace(/~1/g, "/").replace(/~0/g, "~");
    return /^(0|[1-9]\d*)$/.test(key) ? Number(key) : key;
  });
}

const EXPECTED_TYPE = /Expected "([^"]+)"/;

/**
 * Folds the branch errors of a failed `anyOf`/`oneOf` into the alternative
 * itself: "expected string | null" instead of one line per branch. Returns
 * the remaining errors and, per alternative, what its branches expected.
 */
function collapseAlternatives(errors: JsonSchemaOutputUnit[]): {
  errors: JsonSchemaOutputUnit[];
  alternatives: Map<JsonSchemaOutputUnit, string[]>;
} {
  const alternatives = new Map<JsonSchemaOutputUnit, string[]>();
  const consumed = new Set<JsonSchemaOutputUnit>();
  for (const error of errors) {
    if ((error.keyword !== "anyOf" && error.keyword !== "oneOf") || consumed.has(error)) continue;
    const expected: string[] = [];
    for (const branch of errors) {
      if (branch === error || !branch.keywordLocation.startsWith(`${error.keywordLocation}/`)) continue;
      consumed.add(branch);
      if (branch.instanceLocation !== error.instanceLocation) continue;
      if (branch.keyword === "type") expected.push(EXPECTED_TYPE.exec(branch.error)?.[1] ?? "another type");
      else if (branch.keyword === "const") expected.push(CONST_VALUE.exec(branch.error)?.[1] ?? "a constant");
      else if (branch.keyword === "enum")
        expected.push(...(ENUM_VALUES.exec(branch.error)?.[1] ?? "").replace(/^\[|\]$/g, "").split(","));
      else if (branch.keyword === "required")
        expected.push(`an object with "${REQUIRED_PROPERTY.exec(branch.error)?.[1] ?? "?"}"`);
    }
    alternatives.set(error, expected);
  }
  return { errors: errors.filter((error) => !consumed.has(error)), alternatives };
}
const REQUIRED_PROPERTY = /required property "(.*)"\.?$/;
const ENUM_VALUES = /match any of (.*)\.$/;
const CONST_VALUE = /match (.*)\.$/;

/**
 * Issues from `@cfworker/json-schema` output. Keeps the most specific errors:
 * an error is dropped when another error points deeper inside the same value.
 */
export function issuesFromJsonSchemaErrors(all: JsonSchemaOutputUnit[]): ValidationIssue[] {
  const { errors, alternatives } = collapseAlternatives(all);
  const locations = errors.map((error) => error.instanceLocation);
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors) {
    const expectedAlternatives = alternatives.get(error);
    if (expectedAlternatives !== undefined) {
      const path = pointerToPath(error.instanceLocation);
      issues.push(
        expectedAlternatives.length > 0
          ? { path, expected: [...new Set(expectedAlternatives)].join(" | "), message: "" }
          : { path, message: "matches none of the allowed shapes" },
      );
      continue;
    }
    const isContainer = locations.some((other) => other.startsWith(`${error.instanceLocation}/`));
    if (isContainer && error.keyword !== "required") continue;
    let issue: ValidationIssue;
    const path = pointerToPath(error.instanceLocation);
    if (error.keyword === "required") {
      const property = REQUIRED_PROPERTY.exec(error.error)?.[1] ?? "";
      issue = { path: [...path, property], message: "missing required property" };
    } else if (error.keyword === "type") {
      issue = { path, expected: EXPECTED_TYPE.exec(error.error)?.[1] ?? "another type", message: "" };
    } else if (error.keyword === "enum") {
      issue = {
        path,
        expected: (ENUM_VALUES.exec(error.error)?.[1] ?? "")
          .replace(/^\[|\]$/g, "")
          .split(",")
          .join(" | "),
        message: "",
      };
    } else if (error.keyword === "const") {
      issue = { path, expected: CONST_VALUE.exec(error.error)?.[1] ?? "a constant", message: "" };
    } else if (error.keyword === "false") {
      issue = { path, message: "unknown property, remove it" };
    } else {
      issue = { path, message: error.error.replace(/^Instance /, "value ").replace(/\.$/, "") };
    }
    const key = `${JSON.stringify(issue.path)}|${issue.expected ?? ""}|${issue.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    issues.push(issue);
  }
  return issues;
}
