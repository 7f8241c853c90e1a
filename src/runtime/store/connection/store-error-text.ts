/**
 * What a store error may say. Its message reaches a model (`kind: "store"`), a tool output, a thrown `StoreError`
 * and the CLI, so the store's credentials never appear in it and a page from the database or a proxy in front of
 * it is not quoted whole: the password of a URL (`https://user:<password>@host`), the auth token (and every
 * `authToken=` parameter), and any `Authorization`/`Bearer` value a server echoes become `[redacted]`, and the
 * text is cut to {@link MAX_STORE_ERROR_CHARS}.
 */

/** How much of a database's error a message quotes: enough for SQLite's message and an HTTP status line. */
export const MAX_STORE_ERROR_CHARS = 400;

/** What replaces a credential. */
const REDACTED = "[redacted]";

/** Shorter values are not searched for: they would corrupt ordinary words and are no secret anyway. */
const MIN_SECRET_CHARS = 4;

/** Credentials in a form no server-specific knowledge is needed to spot. */
const PATTERNS: ReadonlyArray<[RegExp, string]> = [
  // `scheme://user:password@host` (and `user@host`): the whole userinfo.
  [/\b([a-z][a-z0-9+.-]*:\/\/)[^\s/?#@]+@/gi, `$1${REDACTED}@`],
  // `?authToken=…`, `&auth_token=…`, `token=…`, `password=…`, `jwt=…` in a quoted URL or form.
  [/\b((?:auth_?token|access_?token|token|password|passwd|jwt|api_?key)=)[^\s&#"',;]+/gi, `$1${REDACTED}`],
  // `Authorization: Basic …`, `"authorization":"…"`, `Bearer …` as a server may echo them.
  [/\b(authorization["']?\s*[:=]\s*["']?)(?:(?:bearer|basic|token)\s+)?[^\s"',;}]+/gi, `$1${REDACTED}`],
  [/\b(bearer|basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  // A JWT (Turso's tokens are JWTs) wherever it appears.
  [/\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g, REDACTED],
];

/** The credentials of a store configuration: the token, the URL's password and username, its token parameters. */
export function storeSecrets({ url, authToken }: { url?: string; authToken?: string | undefined }): string[] {
  const secrets = new Set<string>();
  if (authToken !== undefined) secrets.add(authToken);
  if (url !== undefined && URL.canParse(url)) {
    const parsed = new URL(url);
    for (const value of [parsed.password, parsed.username]) {
      secrets.add(value);
      secrets.add(safeDecode(value));
    }
    for (const [name, value] of parsed.searchParams) if (/token|password|jwt|key/i.test(name)) secrets.add(value);
  }
  // Longest first, so a whole value is replaced before a part of it.
  return [...secrets].filter((secret) => secret.length >= MIN_SECRET_CHARS).sort((a, b) => b.length - a.length);
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** `text` without credentials (the known `secrets` and any in a recognisable form), cut to `max` characters. */
export function storeErrorText(text: string, secrets: readonly string[] = [], max = MAX_STORE_ERROR_CHARS): string {
  // The known secrets anywhere first (a plain search, linear), so none is cut in two and half shown.
  let whole = text;
  for (const secret of secrets) {
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      if (whole.includes(form)) whole = whole.replaceAll(form, REDACTED);
    }
  }
  // The patterns on a head a little longer than what is kept: a 1 MB page costs them nothing.
  let out = whole.length > max * 2 ? whole.slice(0, max * 2) : whole;
  for (const [pattern, replacement] of PATTERNS) out = out.replace(pattern, replacement);
  if (whole.length <= max * 2 && out.length <= max) return out;
  const shown = max - 40;
  return `${out.slice(0, shown)}… [${(whole.length - shown).toLocaleString("en-US")} more characters cut]`;
}
