/**
 * Which browser pages may call a codemode MCP handler: a request carrying an `Origin` header
 * (a browser sends one) passes only from the handler's own origin or an allowlisted one, so a
 * page of another site, or of another local port, cannot drive it with the user's cookies.
 */
import { InvalidOptionError } from "../errors.js";

/** `allowedOrigins` as a set of serialized origins; an entry that is not an origin throws, naming it. */
export function originSet(value: unknown): Set<string> {
  if (value === undefined) return new Set();
  const path = "createCodemodeMcpHandler.allowedOrigins";
  if (!Array.isArray(value))
    throw new InvalidOptionError({ path, message: 'must be an array of origins ("https://app.example")' });
  return new Set(
    value.map((entry, index) => {
      const origin = typeof entry === "string" ? parsedOrigin(entry) : undefined;
      if (origin === undefined || origin !== entry.replace(/\/$/, ""))
        throw new InvalidOptionError({
          path: `${path}[${index}]`,
          message: 'must be an origin: scheme, host and port only ("https://app.example", "http://localhost:5173")',
        });
      return origin;
    }),
  );
}

function parsedOrigin(text: string): string | undefined {
  try {
    const origin = new URL(text).origin;
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** A browser page of another origin (not allowlisted) is refused; the handler's own origin always passes. */
export function foreignOrigin(request: Request, allowed: Set<string>): boolean {
  const origin = request.headers.get("origin");
  if (origin === null) return false;
  return origin !== new URL(request.url).origin && !allowed.has(origin);
}
