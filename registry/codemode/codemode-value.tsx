"use client";

import { ChevronDownIcon } from "lucide-react";
import { type ComponentProps, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** Lines shown before a value is folded. */
const FOLDED_LINES = 12;
/** Characters shown before a value is folded (one long line folds too). */
const FOLDED_CHARS = 1200;

/** A value as the card shows it: pretty JSON (`undefined` reads as such, never as an empty box). */
export function formatValue(value: unknown): string {
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}

/** One connector call as code: `connector.method({"a":1})`. */
export function formatCall(call: { connector: string; method: string; args: unknown }): string {
  let args: string;
  try {
    args = JSON.stringify(call.args) ?? "";
  } catch {
    args = String(call.args);
  }
  return `${call.connector}.${call.method}(${args})`;
}

export type CodemodeValueProps = Omit<ComponentProps<"pre">, "children"> & {
  /** The text to show (usually {@link formatValue} of a value). */
  text: string;
  /** What the value is, for screen readers ("Arguments", "Result"). */
  label: string;
};

/**
 * A long value, folded: the whole text is always in the page (copy and search see all of it), only its height is
 * limited until the person unfolds it, and the fold says how much is hidden. Never cut silently.
 */
export function CodemodeValue({ text, label, className, ...props }: CodemodeValueProps) {
  const lines = text.split("\n").length;
  const long = lines > FOLDED_LINES || text.length > FOLDED_CHARS;
  const [open, setOpen] = useState(false);
  const id = useId();
  const folded = long && !open;
  return (
    <div className="relative">
      <pre
        id={id}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block is reached by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        data-folded={folded ? "true" : "false"}
        className={cn(
          "m-0 overflow-auto whitespace-pre-wrap break-all rounded-md bg-muted/50 p-3 font-mono text-foreground text-xs",
          folded && "max-h-48 overflow-hidden",
          className,
        )}
        {...props}
      >
        {text}
      </pre>
      {long ? (
        <Button
          type="button"
          variant="link"
          size="sm"
          className="h-7 px-0 text-xs"
          aria-expanded={open}
          aria-controls={id}
          onClick={() => setOpen(!open)}
        >
          <ChevronDownIcon aria-hidden className={cn("transition-transform", open && "rotate-180")} />
          {open
            ? `Fold the ${label.toLowerCase()}`
            : `Show all of the ${label.toLowerCase()} (${lines} line${lines === 1 ? "" : "s"}, ${text.length.toLocaleString("en")} characters)`}
        </Button>
      ) : null}
    </div>
  );
}
