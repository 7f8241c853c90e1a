/**
 * Tells a store that cannot work as configured from one that failed this
 * once, and words the first kind as a {@link StoreConfigurationError} naming
 * what to fix: a refused token (HTTP 401/403 from the remote) names the
 * variable that carries it; a remote that cannot be reached names the host and
 * the cause (`network-failure.ts`); a local file that cannot be opened says why
 * and, for the default location, how to configure Turso instead; a request
 * past its deadline (`store-deadline.ts`) says so. Whatever comes out carries
 * no credential and quotes a bounded part of the driver's message
 * (`store-error-text.ts`), its `cause` chain included.
 */
import { messageOf } from "../../../shared/message-of.js";
import { CONFIGURE_TURSO_HINT, StoreConfigurationError } from "../../../errors/store-configuration-error.js";
import { StoreError } from "../../../errors/store-error.js";
import { networkFailure } from "./network-failure.js";
import { isStoreRequestTimeout } from "./store-deadline.js";
import { storeErrorText, storeSecrets } from "./store-error-text.js";
import type { StoreTarget } from "./store-target.js";

/** How many `cause` links are followed looking for an HTTP status or code. */
const MAX_CAUSE_DEPTH = 5;

/** Errors of a local database that no retry fixes: the file or its folder cannot be opened or written. */
const LOCAL_CONFIGURATION_CODES = new Set([
  "SQLITE_CANTOPEN",
  "SQLITE_READONLY",
  "SQLITE_PERM",
  "EACCES",
  "EROFS",
  "EPERM",
  "ENOENT",
]);

/** The URL without credentials or parameters, for messages. */
export function redactStoreUrl(url: string): string {
  if (!URL.canParse(url) || url.startsWith("file:")) return url.split("?")[0] ?? url;
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
}

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (typeof current === "object" && current !== null && chain.length < MAX_CAUSE_DEPTH) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function field(error: unknown, name: string): unknown {
  return (error as Record<string, unknown>)[name];
}

/** The HTTP status (401 or 403) of an authentication failure anywhere in the cause chain, else `undefined`. */
export function authenticationStatus(error: unknown): number | undefined {
  for (const link of causes(error)) {
    const status = field(link, "status");
    if (status === 401 || status === 403) return status;
    const code = field(link, "code");
    if (typeof code === "string" && /AUTH|UNAUTHORI[SZ]ED|FORBIDDEN/i.test(code)) return 401;
    const message = field(link, "message");
    const quoted = typeof message === "string" ? /(?:HTTP status|server response:)\s*(401|403)\b/i.exec(message) : null;
    if (quoted?.[1] !== undefined) return Number(quoted[1]);
  }
  return undefined;
}

function localCode(error: unknown): string | undefined {
  for (const link of causes(error)) {
    const code = field(link, "code");
    if (typeof code === "string" && LOCAL_CONFIGURATION_CODES.has(code)) return code;
  }
  return undefined;
}

function tokenAdvice(target: Extract<StoreTarget, { kind: "client" }>): string {
  switch (target.source) {
    case "TURSO_DATABASE_URL":
      return target.authToken === undefined
        ? "TURSO_AUTH_TOKEN is not set: set it to a token for the database in TURSO_DATABASE_URL."
        : "Check TURSO_AUTH_TOKEN: it must be a valid, unexpired token for the database in TURSO_DATABASE_URL.";
    case "CODEMODE_DATABASE_URL":
      return (
        "Check CODEMODE_DATABASE_URL: it carries no separate token, so a remote URL needs its own " +
        "(?authToken=…); or set TURSO_DATABASE_URL and TURSO_AUTH_TOKEN instead."
      );
    default:
      return target.authToken === undefined
        ? "The store option has no auth token: pass { url, authToken } (for example " +
            "{ url: process.env.TURSO_DATABASE_URL, authToken: process.env.TURSO_AUTH_TOKEN }); a URL string alone sends none."
        : "Check the authToken of the store option (usually TURSO_AUTH_TOKEN): the server refused it.";
  }
}

/** `CODE: detail`, once: Node's own messages already start with their code (`EACCES: permission denied, …`). */
function codeAndDetail(code: string, detail: string): string {
  if (detail === code) return code;
  return detail.startsWith(`${code}:`) || detail.startsWith(`${code} `) ? detail : `${code}: ${detail}`;
}

function localAdvice(target: Extract<StoreTarget, { kind: "embedded" }>, code: string, detail: string): string {
  const why = codeAndDetail(code, detail);
  if (target.source === "default") {
    return (
      `No database is configured, and the default local file ${target.path} cannot be created or written ` +
      `(${why}); the working directory is probably read-only, as on Vercel or AWS Lambda. ${CONFIGURE_TURSO_HINT}`
    );
  }
  const from = target.source === "option" ? "the store option" : target.source;
  return (
    `The database file ${target.path} (from ${from}) cannot be opened for writing (${why}). ` +
    `Point ${from} at a writable file in an existing folder. On a read-only filesystem (serverless): ${CONFIGURE_TURSO_HINT}`
  );
}

/** Why no token was sent, when a URL that usually needs one (Turso's `libsql://`, `https://`, `wss://`) has none. */
function missingToken(target: Extract<StoreTarget, { kind: "client" }>): string {
  if (target.authToken !== undefined || !/^(libsql|https|wss):/i.test(target.url)) return "";
  if (/[?&]authToken=/.test(target.url)) return "";
  return ` ${tokenAdvice(target)}`;
}

/** Whether a link of `error`'s cause chain is a request past its deadline (ours, or an aborted fetch's). */
function timedOut(error: unknown): boolean {
  return causes(error).some((link) => isStoreRequestTimeout(link) || field(link, "name") === "TimeoutError");
}

/** Why a URL with `user:password@` fails over HTTP: fetch refuses to send it, and libSQL takes a token instead. */
function credentialsInUrl(target: Extract<StoreTarget, { kind: "client" }>, error: unknown): string | undefined {
  if (!URL.canParse(target.url) || new URL(target.url).password === "" || !/credentials/i.test(messageOf(error)))
    return undefined;
  return (
    `The database URL ${redactStoreUrl(target.url)} carries a user and password (user:password@), which libSQL over ` +
    "HTTP does not send. Remove them from the URL and pass the database token as authToken " +
    "(TURSO_AUTH_TOKEN). This is a configuration error; trying again will not help."
  );
}

/** A remote store that could not be reached: the host, the cause and, unless it may pass, a configuration error. */
function unreachable(
  target: Extract<StoreTarget, { kind: "client" }>,
  error: unknown,
  secrets: readonly string[],
): unknown {
  if (timedOut(error)) {
    return new StoreError({
      message:
        `The database at ${redactStoreUrl(target.url)} did not answer within ${target.requestTimeoutMs} ms; the ` +
        "request was abandoned. The database or the network to it is down or overloaded. If it is only slow, " +
        "raise the store's requestTimeoutMs.",
      cause: error,
    });
  }
  const inUrl = credentialsInUrl(target, error);
  if (inUrl !== undefined) return new StoreConfigurationError({ message: inUrl, cause: error });
  const failure = networkFailure(error);
  if (failure === undefined) return error;
  const { code, detail, reason, advice, transient } = failure;
  const message =
    `The database at ${redactStoreUrl(target.url)} could not be reached: ${reason} ` +
    `(${codeAndDetail(code, storeErrorText(detail, secrets))}). ` +
    `${advice}${missingToken(target)}`;
  // A transient failure stays a store failure (the runtime adds "try again later"); the others say what to fix.
  if (transient) return new StoreError({ message, cause: error });
  return new StoreConfigurationError({ message: `${message} Trying again will not help.`, cause: error });
}

/**
 * `error` as a {@link StoreConfigurationError} when it is one in disguise, as a {@link StoreError} when the
 * database did not answer in time, otherwise as it is; in every case without the target's credentials (or any
 * recognisable one) and with its message, and those of its causes, cut.
 */
export function explainStoreError(error: unknown, target: StoreTarget): unknown {
  const secrets = target.kind === "client" ? storeSecrets(target) : [];
  return cleanStoreError(explained(error, target, secrets), secrets);
}

/** Our own store messages: a quoted detail (cut) plus advice on what to change. */
const MAX_STORE_MESSAGE_CHARS = 2_000;

/** How many `cause` links a cleaned error keeps. */
const MAX_CLEAN_CAUSES = 3;

/**
 * A copy of `error` whose message (and those of its causes, up to {@link MAX_CLEAN_CAUSES}) is redacted and cut;
 * the name, `code` and `status` stay, so a reader still tells an SQL error from an HTTP one. Our own store errors
 * keep their class.
 */
export function cleanStoreError(error: unknown, secrets: readonly string[], depth = 0): unknown {
  if (typeof error !== "object" || error === null) return new Error(storeErrorText(messageOf(error), secrets));
  const cause = (error as { cause?: unknown }).cause;
  const cleanCause =
    cause === undefined || depth >= MAX_CLEAN_CAUSES ? undefined : cleanStoreError(cause, secrets, depth + 1);
  // Our own messages quote a cut detail already; their advice is kept whole.
  const ours = StoreConfigurationError.isInstance(error) || StoreError.isInstance(error);
  const message = storeErrorText(messageOf(error), secrets, ours ? MAX_STORE_MESSAGE_CHARS : undefined);
  if (StoreConfigurationError.isInstance(error)) return new StoreConfigurationError({ message, cause: cleanCause });
  if (StoreError.isInstance(error)) return new StoreError({ message, cause: cleanCause });
  const copy = new Error(message, cleanCause === undefined ? undefined : { cause: cleanCause });
  copy.name = typeof (error as Error).name === "string" ? (error as Error).name : "Error";
  for (const key of ["code", "status"] as const) {
    const value = (error as Record<string, unknown>)[key];
    if (typeof value === "string" || typeof value === "number") Object.assign(copy, { [key]: value });
  }
  return copy;
}

function explained(error: unknown, target: StoreTarget, secrets: readonly string[]): unknown {
  if (StoreConfigurationError.isInstance(error)) return error;
  const detail = storeErrorText(messageOf(error), secrets);
  if (target.kind === "client" && !target.local) {
    const status = authenticationStatus(error);
    if (status === undefined) return unreachable(target, error, secrets);
    return new StoreConfigurationError({
      message:
        `The database at ${redactStoreUrl(target.url)} refused the credentials (HTTP ${status}: ${detail}). ` +
        `${tokenAdvice(target)} This is a configuration error; trying again will not help.`,
      cause: error,
    });
  }
  const code = localCode(error);
  if (target.kind !== "embedded" || code === undefined) return error;
  return new StoreConfigurationError({ message: localAdvice(target, code, detail), cause: error });
}
