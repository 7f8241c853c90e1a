/**
 * `useCodemodeRun(part)`: the view of a `tool-codemode` part for a component, computed once per change of the part
 * and structurally shared with the previous view (unchanged calls keep their objects; an unchanged part keeps the
 * whole view), so memoized rows re-render only for calls that changed.
 */
import { useRef } from "react";
import { type CodemodeRunView, readCodemodeRun } from "./codemode-run-view.js";

/**
 * Reads a codemode tool part as `useChat` holds it (`message.parts[i]` with `type: "tool-codemode"`, or a
 * `dynamic-tool` part of the codemode tool): the program, its calls with their live state, its console lines, the
 * calls waiting for a person (with their input schemas and whether they are `editable`) and the outcome.
 *
 * The view is stable: the same part gives the same object, and a new snapshot keeps the objects of the calls it
 * did not change, so `React.memo` rows keyed by `call.seq` re-render only when their call changed.
 *
 * @example
 * ```tsx
 * function CodemodeCard({ part }: { part: ToolUIPart }) {
 *   const run = useCodemodeRun(part);
 *   return (
 *     <section>
 *       <pre>{run.code}</pre>
 *       <ol>{run.calls.map((call) => <li key={call.seq}>{call.connector}.{call.method}: {call.state}</li>)}</ol>
 *       {run.outcome.status === "completed" ? <pre>{JSON.stringify(run.outcome.result)}</pre> : null}
 *     </section>
 *   );
 * }
 * ```
 */
export function useCodemodeRun(part: object | undefined): CodemodeRunView {
  const cache = useRef<{ part: object | undefined; view: CodemodeRunView } | undefined>(undefined);
  const cached = cache.current;
  if (cached !== undefined && cached.part === part) return cached.view;
  const view = readCodemodeRun(part, cached?.view);
  cache.current = { part, view };
  return view;
}
