/**
 * The MCP approval card's script (`card/approval-card.js`) bundled to text: `approval-card-source.js` beside this
 * file is generated from it (`scripts/approval-card-sources.ts`; the build bundles it afresh, vitest runs and
 * `npm run generate` write it) and never committed.
 */

/** An expression whose value is `startApprovalCard`. */
export declare const APPROVAL_CARD_SOURCE: string;
