/**
 * Deterministic synthetic tool sets shaped like real SaaS APIs (services of
 * resources with list/get/create/update/delete/search verbs, described
 * parameters, enums, nested objects), for the token benchmark and the
 * description-size tests.
 */
import { jsonSchema, type ToolSet } from "@ai-sdk/provider-utils";

const SERVICES = [
  "crm",
  "billing",
  "support",
  "inventory",
  "shipping",
  "analytics",
  "calendar",
  "storage",
  "hr",
  "marketing",
  "payments",
  "identity",
  "search",
  "messaging",
  "projects",
  "wiki",
  "monitoring",
  "deploy",
  "catalog",
  "orders",
];
const RESOURCES = [
  "customer",
  "invoice",
  "ticket",
  "product",
  "shipment",
  "report",
  "event",
  "file",
  "employee",
  "campaign",
  "refund",
  "user",
  "index",
  "message",
  "task",
  "page",
  "alert",
  "release",
  "category",
  "order",
];
const VERBS = ["list", "get", "create", "update", "delete", "search", "archive", "export", "assign", "comment"];

function article(word: string): string {
  return /^[aeiou]/.test(word) ? "an" : "a";
}

function toolSchema(verb: string, resource: string, index: number): Record<string, unknown> {
  const idProperty = {
    type: "string",
    description: `The unique identifier of the ${resource}, e.g. "${resource.slice(0, 3)}_123".`,
  };
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  if (["get", "update", "delete", "archive", "assign", "comment"].includes(verb)) {
    properties[`${resource}_id`] = idProperty;
    required.push(`${resource}_id`);
  }
  if (verb === "list" || verb === "search" || verb === "export") {
    if (verb === "search") {
      properties["query"] = { type: "string", description: `Free-text query matched against ${resource} fields.` };
      required.push("query");
    }
    properties["limit"] = {
      type: "integer",
      minimum: 1,
      maximum: 100,
      default: 20,
      description: "Maximum number of results to return.",
    };
    properties["cursor"] = { type: "string", description: "Pagination cursor returned by a previous call." };
    properties["status"] = {
      type: "string",
      enum: ["active", "archived", "draft"],
      description: `Only ${resource}s with this status.`,
    };
    properties["created_after"] = {
      type: "string",
      format: "date-time",
      description: "Only items created after this instant (ISO 8601).",
    };
  }
  if (verb === "create" || verb === "update") {
    properties["name"] = { type: "string", description: `Display name of the ${resource}.` };
    properties["description"] = { type: "string", description: `Longer description of the ${resource}.` };
    properties["tags"] = { type: "array", items: { type: "string" }, description: "Labels used for filtering." };
    properties["metadata"] = {
      type: "object",
      additionalProperties: { type: "string" },
      description: "Key-value pairs stored with the object.",
    };
    properties["owner"] = {
      type: "object",
      description: "Who is responsible.",
      properties: { user_id: { type: "string" }, team: { type: "string" } },
      required: ["user_id"],
    };
    if (verb === "create") required.push("name");
  }
  if (verb === "assign") {
    properties["assignee_id"] = { type: "string", description: "User who takes over." };
    required.push("assignee_id");
  }
  if (verb === "comment") {
    properties["body"] = { type: "string", description: "Comment text (Markdown)." };
    properties["visibility"] = { type: "string", enum: ["internal", "public"], default: "internal" };
    required.push("body");
  }
  if (verb === "export")
    properties["format"] = { type: "string", enum: ["csv", "json", "xlsx"], description: "File format." };
  if (index % 3 === 0) properties["dry_run"] = { type: "boolean", description: "Validate only; change nothing." };
  return { type: "object", properties, required, additionalProperties: false };
}

function toolDescription(service: string, verb: string, resource: string): string {
  const what: Record<string, string> = {
    list: `Lists ${resource}s in ${service}, newest first, with pagination.`,
    get: `Retrieves ${article(resource)} ${resource} from ${service} by id.`,
    create: `Creates ${article(resource)} ${resource} in ${service}.`,
    update: `Updates fields of an existing ${resource} in ${service}; omitted fields are unchanged.`,
    delete: `Permanently deletes ${article(resource)} ${resource} from ${service}.`,
    search: `Searches ${resource}s in ${service} by free text.`,
    archive: `Archives ${article(resource)} ${resource} in ${service} so it no longer appears in lists.`,
    export: `Exports ${resource}s from ${service} as a downloadable file.`,
    assign: `Assigns ${article(resource)} ${resource} in ${service} to a user.`,
    comment: `Adds a comment to ${article(resource)} ${resource} in ${service}.`,
  };
  return what[verb] ?? `${verb} ${resource}`;
}

/** One synthetic tool's parts. */
export interface SyntheticTool {
  service: string;
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** `count` tools: 10 verbs per resource, 5 resources per service (50 tools per service); names unique per service. */
export function syntheticTools(count: number): SyntheticTool[] {
  const tools: SyntheticTool[] = [];
  for (let index = 0; index < count; index++) {
    const verb = VERBS[index % VERBS.length]!;
    const group = Math.floor(index / VERBS.length);
    const resource = RESOURCES[group % RESOURCES.length]!;
    const service = `${SERVICES[Math.floor(group / 5) % SERVICES.length]!}${group >= 100 ? Math.floor(group / 100) : ""}`;
    tools.push({
      service,
      name: `${verb}_${resource}`,
      description: toolDescription(service, verb, resource),
      inputSchema: toolSchema(verb, resource, index),
    });
  }
  return tools;
}

/** The synthetic tools grouped by service, as AI SDK tool sets with an `execute` echoing the input. */
export function syntheticToolSets(count: number): Record<string, ToolSet> {
  const sets: Record<string, ToolSet> = {};
  for (const tool of syntheticTools(count)) {
    sets[tool.service] ??= {};
    const set = sets[tool.service]!;
    set[tool.name] = {
      description: tool.description,
      inputSchema: jsonSchema(tool.inputSchema),
      execute: async (input: unknown) => ({ ok: true, tool: tool.name, input }),
    };
  }
  return sets;
}
