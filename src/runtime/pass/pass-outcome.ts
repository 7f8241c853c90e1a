/**
 * Where a pass ended, as `run-pass.ts` decides it and `unfinished-work.ts` may amend it before the end is written.
 */
import type { CodemodeOutput } from "../types.js";

/** Where a pass ended, before `transformResult`. */
export type PassOutcome =
  | { status: "completed"; executionId: string; result: unknown; logs: string[]; journaled: boolean }
  | Exclude<CodemodeOutput, { status: "completed" }>;
