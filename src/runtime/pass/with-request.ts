/**
 * A pending call shown with the exact HTTP request it will send, for connector methods that send one (OpenAPI
 * operations): what an approver approves, beside the arguments. Used where a pass pauses and where the handle
 * lists pending calls (`execution-views.ts`).
 */
import type { ConnectorMethod } from "../../connectors/types.js";
import type { PendingAction } from "../types.js";

/**
 * Adds the HTTP request the call will send, when its method can say (`describeRequest`), and `editable` when its
 * method lets an approver change the arguments (with its input schema, when it has one).
 */
export function withRequest(given: PendingAction, definition: ConnectorMethod | undefined): PendingAction {
  const action: PendingAction =
    definition?.editable === true
      ? {
          ...given,
          editable: true,
          ...(definition.inputSchema === undefined ? {} : { inputSchema: definition.inputSchema }),
        }
      : given;
  if (definition?.describeRequest === undefined) return action;
  let request: PendingAction["request"];
  try {
    request = definition.describeRequest(action.args);
  } catch {
    request = undefined;
  }
  return request === undefined ? action : { ...action, request: { method: request.method, url: request.url } };
}
