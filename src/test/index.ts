/**
 * Test helpers shipped as `ai-codemode/test`: a mock connector whose side
 * effects are recorded in a ledger, to prove exactly-once behaviour.
 */
export { createMockConnector } from "./mock-connector.js";
export type { MockConnector, MockMethodOptions } from "./mock-connector.js";
export { SideEffectLedger } from "./side-effect-ledger.js";
export type { LedgerEntry } from "./side-effect-ledger.js";
