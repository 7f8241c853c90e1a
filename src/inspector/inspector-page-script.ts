/**
 * The web inspector's browser script (inline, allowed by its hash in the page's CSP): the checked modules of
 * `src/inspector/page/` bundled to text (the generated `inspector-page-source.js`), started with the time axis of
 * `timeline-scale.ts` embedded as source (and unit-tested there).
 */
import { INSPECTOR_PAGE_SOURCE } from "./inspector-page-source.js";
import { timelineScale } from "./timeline-scale.js";

export const INSPECTOR_SCRIPT = `"use strict";
${INSPECTOR_PAGE_SOURCE}(${timelineScale.toString()});
`;
