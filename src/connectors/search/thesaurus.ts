/**
 * Data, not code: the API vocabulary search uses to bridge the words a person or a model types
 * and the words a tool is written in. Read by `search/terms.ts`. Keys and values are lower-case
 * words or space-separated phrases. Add an entry for a class of misses, never for one query.
 */

/**
 * Short forms read as the words they stand for, in names, descriptions and queries alike, so
 * `list_prs`, "PRs" and "pull requests" index and search as the same words. Fixes the
 * abbreviation class: API names and people abbreviate where descriptions spell out (or back).
 */
export const ABBREVIATIONS: Readonly<Record<string, string>> = {
  repo: "repository",
  pr: "pull request",
  mr: "merge request",
  org: "organization",
  dir: "directory",
  msg: "message",
  img: "image",
  pic: "picture",
  db: "database",
  env: "environment",
  config: "configuration",
  info: "information",
  param: "parameter",
  spec: "specification",
  admin: "administrator",
  ref: "reference",
  kg: "knowledge graph",
  js: "javascript",
  ts: "typescript",
  lat: "latitude",
  lng: "longitude",
  lon: "longitude",
  addr: "address",
  num: "number",
  var: "variable",
  stat: "statistic",
  gh: "github",
  auth: "authentication",
  ls: "list",
  rm: "remove",
  mv: "move",
  cp: "copy",
  mkdir: "make directory",
  pg: "postgres",
  url: "url",
  ci: "continuous integration",
  dm: "direct message",
  ssh: "ssh",
  gpg: "gpg",
  desc: "description",
  doc: "document",
};

/**
 * Verbs people use for the verb an API names its operation with. A query word on the left also
 * searches the words on the right, at `VERB_WEIGHT`. Fixes the verb-synonym class ("remove" a
 * repository is `delete`, "fetch" an issue is `get`, "stop" a run is `cancel`).
 */
export const VERB_SYNONYMS: Readonly<Record<string, string>> = {
  // Create, read, update, delete, list and search, as people say them.
  make: "create",
  new: "create",
  open: "create get read",
  file: "create",
  add: "create",
  put: "add update",
  insert: "add create",
  append: "add",
  give: "add",
  record: "add create",
  fetch: "get read",
  retrieve: "get read",
  show: "get list read",
  view: "get list read",
  see: "get list",
  display: "get list",
  obtain: "get",
  read: "get",
  look: "get search",
  lookup: "get search",
  browse: "list",
  enumerate: "list",
  edit: "update",
  modify: "update",
  change: "update edit",
  patch: "update",
  set: "update",
  remove: "delete",
  erase: "delete",
  drop: "delete",
  destroy: "delete",
  discard: "delete",
  find: "search list",
  locate: "search",
  seek: "search",
  grep: "search",
  query: "search",
  // Sending, running and stopping.
  post: "send create",
  write: "create send",
  send: "post create",
  reply: "comment reply",
  respond: "reply comment",
  run: "execute evaluate",
  execute: "run evaluate",
  evaluate: "run execute",
  invoke: "run",
  stop: "cancel",
  abort: "cancel",
  retry: "re run",
  rerun: "re run",
  // Version control and the browser.
  copy: "fork",
  link: "relation create",
  visit: "navigate open",
  type: "fill",
};

/**
 * Everyday words for the domain terms tools use. A query word or phrase on the left also
 * searches the words on the right, at `DOMAIN_WEIGHT`. Fixes the domain-synonym class ("folder"
 * for directory, "ticket" for issue, "picture" for image, "chat room" for channel).
 */
export const DOMAIN_SYNONYMS: Readonly<Record<string, string>> = {
  // Files, version control and CI.
  folder: "directory",
  ticket: "issue",
  bug: "issue",
  project: "repository",
  history: "commit list",
  changes: "commit diff",
  diff: "compare",
  compare: "diff",
  tag: "label",
  category: "label",
  categorize: "label",
  snippet: "gist",
  pipeline: "workflow",
  build: "workflow",
  "continuous integration": "workflow check status",
  "static analysis": "code scanning",
  version: "release tag",
  credential: "secret key",
  password: "secret",
  hook: "webhook",
  modified: "information metadata",
  size: "sizes",
  big: "sizes",
  // People and access ("my" is the authenticated user in most APIs).
  people: "user member",
  member: "user",
  account: "user",
  team: "user member",
  access: "collaborator permission",
  me: "authenticated",
  my: "authenticated",
  mine: "authenticated",
  myself: "authenticated",
  // Media, messaging, the web, places and knowledge graphs.
  picture: "image",
  photo: "image",
  emoji: "reaction",
  "thumbs up": "reaction",
  "chat room": "channel",
  website: "page url",
  "web page": "page url",
  webpage: "page url",
  site: "page url",
  snapshot: "screenshot",
  internet: "web",
  online: "web",
  text: "input field",
  "text box": "input field",
  gps: "coordinates latitude longitude",
  coordinates: "geocode latitude longitude",
  fact: "observation",
  table: "database sql",
  rows: "database sql",
};

/** Weight of a verb synonym relative to the query's own word (1). */
export const VERB_WEIGHT = 0.8;
/** Weight of a domain synonym relative to the query's own word (1). */
export const DOMAIN_WEIGHT = 0.8;
/** Verbs that undo what the word after them names ("stop following" is `unfollow`). */
export const REVERSING_VERBS = "stop remove undo revoke withdraw cancel";
/** Weight left to a word's own terms when a reversing verb before it asks for its `un-` form. */
export const REVERSAL_WEIGHT = 0.8;
