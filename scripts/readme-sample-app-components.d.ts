/**
 * What the chat components `npx shadcn add` installs under the app's `@/components/…` (registry/codemode) export to
 * a sample of docs/*.md, with the items' own prop types; `scripts/check-readme-samples.ts` maps `@/components/*` to
 * this file. The items themselves import the app's shadcn primitives, which this repository does not install.
 */
import type { ComponentProps, JSX, ReactNode } from "react";
import type { CodemodeDecisions, CodemodeRunView } from "ai-codemode/react";

/** An editable call's input schema (the JSON Schema subset the edit form reads). */
type CodemodeArgsSchema = Record<string, unknown>;
type Schemas = Record<string, CodemodeArgsSchema | undefined>;

export function CodemodeRun(
  props: Omit<ComponentProps<"div">, "part"> & {
    part: object;
    decisions: CodemodeDecisions;
    schemas?: Schemas;
    defaultOpen?: boolean;
    children?: ReactNode;
  },
): JSX.Element;
export function CodemodeRunHeader(props: ComponentProps<"button"> & { title?: string }): JSX.Element;
export function CodemodeRunContent(props: ComponentProps<"div">): JSX.Element;
export function CodemodeRunProgram(props: Omit<ComponentProps<"figure">, "code"> & { title?: string }): JSX.Element;
export function CodemodeRunCalls(props: ComponentProps<"section"> & { showLogs?: boolean }): JSX.Element;
export function CodemodeRunApproval(props: ComponentProps<"section">): JSX.Element;
export function CodemodeRunOutput(props: ComponentProps<"div">): JSX.Element;
export function CodemodeProgram(props: ComponentProps<"figure"> & { code: string; title?: string }): JSX.Element;
export function CodemodeCalls(props: ComponentProps<"section"> & { run: CodemodeRunView; showLogs?: boolean }): JSX.Element;
export function CodemodeApproval(
  props: ComponentProps<"section"> & { run: CodemodeRunView; decisions: CodemodeDecisions; schemas?: Schemas },
): JSX.Element;
