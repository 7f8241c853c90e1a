/**
 * The guest modules (`guest/*.js`) bundled to text: `guest-sources.js` beside this file is generated from them
 * (`scripts/guest-sources.ts`; the build bundles it afresh, vitest runs and `npm run generate` write it) and never
 * committed. Each text is an expression whose value is that module's factory, compiled inside QuickJS on first use.
 */

/** A guest module's name (`GUEST_MODULES` in `scripts/guest-sources.ts`; a type test keeps the two equal). */
export type GuestModuleName = "plain" | "codec" | "render" | "environment" | "codemodeGlobal" | "fetchGlobal";

/** The guest modules as text, by name. */
export declare const GUEST_SOURCES: Readonly<Record<GuestModuleName, string>>;
