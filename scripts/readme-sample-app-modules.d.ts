/**
 * What the Next.js example's modules (examples/nextjs/lib) export to a sample of docs/*.md that imports them
 * through the app's `@/lib/…` alias, with the example's own signatures; `scripts/check-readme-samples.ts` maps
 * `@/lib/*` to this file.
 */
/** The app's runtime (lib/codemode.ts). */
export function getCodemodeRuntime(): import("ai-codemode").CodemodeRuntime;
/** The user a signed session value names (lib/session.ts). */
export function userFromCookie(value: string | undefined): Promise<string | undefined>;
/** The user of a request, from its session cookie (lib/session.ts). */
export function userOfRequest(request: Request): Promise<string | undefined>;
/** Your session (the docs' stand-in for the app's auth): the signed-in user's id, undefined when signed out. */
export function auth(request: Request): Promise<{ userId: string | undefined }>;
