/**
 * The inspector page's script (`page/*.js`) bundled to text: `inspector-page-source.js` beside this file is generated
 * from it (`scripts/inspector-page-sources.ts`; the build bundles it afresh, vitest runs and `npm run generate` write
 * it) and never committed.
 */

/** An expression whose value is `startInspectorPage(timelineScale)`. */
export declare const INSPECTOR_PAGE_SOURCE: string;
