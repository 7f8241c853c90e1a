/**
 * Why a remote store could not be reached, read from the error's `cause` chain: `@libsql/client` reports every
 * network failure as undici's bare "fetch failed", whose cause carries the system code (DNS, refused, TLS, …).
 * Only what may pass on its own (a timeout, a reset, an unreachable network) is called transient.
 */

/** How many `cause` links (and aggregated errors) are read looking for a code. */
const MAX_LINKS = 8;

/** A network failure named for a person: its code, what it means and whether retrying may help. */
export interface NetworkFailure {
  code: string;
  /** What happened, e.g. "the host name could not be resolved". */
  reason: string;
  /** What to do about it. */
  advice: string;
  transient: boolean;
  /** The system's own message (`getaddrinfo ENOTFOUND db.example.invalid`). */
  detail: string;
}

const CHECK_URL = "Check the host name and port of the store URL.";
const RETRY = "The network or the server may recover.";

/** System and undici codes, by meaning. */
const KNOWN: Record<string, Omit<NetworkFailure, "code" | "detail">> = {
  ENOTFOUND: { reason: "the host name could not be resolved", advice: CHECK_URL, transient: false },
  EAI_AGAIN: { reason: "the DNS lookup of the host timed out", advice: RETRY, transient: true },
  ECONNREFUSED: {
    reason: "the connection was refused: nothing accepts connections at that host and port",
    advice: `${CHECK_URL} For a self-hosted server, check that it is running.`,
    transient: false,
  },
  ECONNRESET: { reason: "the connection was reset", advice: RETRY, transient: true },
  EPIPE: { reason: "the connection was closed while sending", advice: RETRY, transient: true },
  ETIMEDOUT: { reason: "the connection timed out", advice: RETRY, transient: true },
  UND_ERR_CONNECT_TIMEOUT: { reason: "the connection timed out", advice: RETRY, transient: true },
  UND_ERR_SOCKET: { reason: "the connection was closed by the other side", advice: RETRY, transient: true },
  EHOSTUNREACH: { reason: "the host is unreachable", advice: RETRY, transient: true },
  ENETUNREACH: { reason: "the network is unreachable", advice: RETRY, transient: true },
};

const TLS = {
  reason: "the TLS handshake failed",
  advice:
    "Check the scheme (https:// and libsql:// use TLS; a server without TLS needs http://) and the server's certificate.",
  transient: false,
};

const BAD_PORT = {
  reason: "fetch refuses to connect to that port",
  advice: `${CHECK_URL} The port is on fetch's list of blocked ports.`,
  transient: false,
};

const SYSTEM_CODE = /\b(E[A-Z_]{3,}|UND_ERR_[A-Z_]+|ERR_(?:SSL|TLS)_[A-Z_]+)\b/;

function isTlsCode(code: string): boolean {
  return (
    /^ERR_(SSL|TLS)_/.test(code) ||
    /CERT|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code) ||
    code === "EPROTO"
  );
}

/** The error, its causes and the errors an `AggregateError` (both address families failing) holds. */
function links(error: unknown): Array<Record<string, unknown>> {
  const found: Array<Record<string, unknown>> = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && found.length < MAX_LINKS) {
    const link = queue.shift();
    if (typeof link !== "object" || link === null) continue;
    const record = link as Record<string, unknown>;
    found.push(record);
    if (Array.isArray(record["errors"])) queue.push(...record["errors"]);
    queue.push(record["cause"]);
  }
  return found;
}

/** OpenSSL's messages carry an address and a source path: keep the reason (`wrong version number`). */
function readable(message: string): string {
  return /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1] ?? message;
}

function named(code: string, message: string): NetworkFailure | undefined {
  const known = KNOWN[code] ?? (isTlsCode(code) ? TLS : undefined);
  return known === undefined ? undefined : { code, detail: readable(message), ...known };
}

/** The network failure behind `error`, or `undefined` when it is not one (an HTTP status, an SQL error, …). */
export function networkFailure(error: unknown): NetworkFailure | undefined {
  for (const link of links(error)) {
    const message = typeof link["message"] === "string" ? link["message"].trim() : "";
    const code = typeof link["code"] === "string" ? link["code"] : undefined;
    const byCode = code === undefined ? undefined : named(code, message);
    if (byCode !== undefined) return byCode;
    // The WebSocket transport puts the system code only in its message.
    const quoted = SYSTEM_CODE.exec(message)?.[1];
    const byMessage = quoted === undefined ? undefined : named(quoted, message);
    if (byMessage !== undefined) return byMessage;
    if (message === "bad port") return { code: "bad port", detail: message, ...BAD_PORT };
  }
  return undefined;
}
