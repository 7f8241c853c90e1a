/**
 * JSON text of what the inspector and the CLI show: program values as their one display
 * (`src/shared/display-value.ts`: `"1n"`, `{"Map(1)": …}`, an ISO date), never failing.
 * Shared by the CLI's `--json` and the web inspector's API.
 */
import { displayJson } from "../shared/display-value.js";
import { messageOf } from "../shared/message-of.js";

/** `value` as JSON text of its display (`undefined` at the top level is `"undefined"`). */
export function inspectorJson(value: unknown, indent?: number): string {
  try {
    return JSON.stringify(displayJson(value), null, indent);
  } catch (error) {
    return JSON.stringify(`<not serializable: ${messageOf(error)}>`);
  }
}
