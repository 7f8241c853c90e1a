/**
 * What a client of the 2026-07-28 revision gets for a `codemode` call whose program paused. That
 * revision has no server-to-client requests (no elicitation form, no `-32042` link error), so for
 * now the call answers as it does for a client without elicitation: the paused output, with how a
 * person decides it elsewhere and how `codemode_outcome` reads the result afterwards.
 */
import type { CodemodeOutput } from "../runtime/types.js";
import { undecidedMessage } from "./settle-approvals.js";

/** A paused `codemode` output of a 2026-07-28 request, and what the tool result tells the model. */
export interface PausedForModernClient {
  output: Extract<CodemodeOutput, { status: "paused" }>;
  /** How a person decides it outside the chat (`{id}` is the execution id). */
  hint: string;
}

/** The output and message of the tool result a 2026-07-28 client gets for a paused program. */
export function pausedForModernClient({ output, hint }: PausedForModernClient): {
  output: CodemodeOutput;
  message: string;
} {
  return {
    output,
    message: undecidedMessage(
      "No person can be asked through this client (this protocol revision has no elicitation request)",
      output.executionId,
      hint,
    ),
  };
}
