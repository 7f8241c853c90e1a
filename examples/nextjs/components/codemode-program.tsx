"use client";

import { CheckIcon, CopyIcon } from "lucide-react";
import { type ComponentProps, Fragment, type ReactNode, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/lib/utils";

/** A token of a program: how it is coloured. */
type TokenKind = "comment" | "string" | "number" | "keyword" | "literal" | "plain";

const TOKEN =
  /(\/\/[^\n]*|\/\*[\s\S]*?\*\/)|("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\b(\d[\d_]*(?:\.\d+)?(?:e[+-]?\d+)?n?)\b|\b(await|async|break|case|catch|class|const|continue|default|delete|do|else|export|for|function|if|import|in|instanceof|let|new|of|return|switch|throw|try|typeof|var|void|while|yield)\b|\b(true|false|null|undefined|this)\b/g;

const TOKEN_CLASS: Record<TokenKind, string> = {
  comment: "text-muted-foreground italic",
  string: "text-emerald-700 dark:text-emerald-300",
  number: "text-amber-700 dark:text-amber-300",
  keyword: "text-violet-700 dark:text-violet-300",
  literal: "text-sky-700 dark:text-sky-300",
  plain: "",
};

/** Splits JavaScript into coloured tokens (a small lexer: comments, strings, numbers, keywords). */
export function highlightProgram(code: string): ReactNode[] {
  const nodes: ReactNode[] = [];
  let last = 0;
  for (const match of code.matchAll(TOKEN)) {
    const index = match.index ?? 0;
    if (index > last) nodes.push(<Fragment key={`p${last}`}>{code.slice(last, index)}</Fragment>);
    const kind: TokenKind = match[1]
      ? "comment"
      : match[2]
        ? "string"
        : match[3]
          ? "number"
          : match[4]
            ? "keyword"
            : "literal";
    nodes.push(
      <span key={`t${index}`} className={TOKEN_CLASS[kind]}>
        {match[0]}
      </span>,
    );
    last = index + match[0].length;
  }
  if (last < code.length) nodes.push(<Fragment key={`p${last}`}>{code.slice(last)}</Fragment>);
  return nodes;
}

export type CodemodeProgramProps = ComponentProps<"figure"> & {
  /** The program the model wrote. */
  code: string;
  /** The caption read by screen readers and shown above the code. */
  title?: string;
};

/** The program of a codemode run, highlighted, with a copy button. */
export function CodemodeProgram({ code, title = "Program", className, ...props }: CodemodeProgramProps) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(code).then(
      () => {
        setCopied(true);
        setTimeout(() => setCopied(false), 1500);
      },
      () => undefined,
    );
  };
  return (
    <figure
      className={cn("group/program relative m-0 overflow-hidden rounded-md border bg-muted/50", className)}
      {...props}
    >
      <figcaption className="flex items-center justify-between px-3 pt-2 font-medium text-muted-foreground text-xs uppercase tracking-wide">
        {title}
        <Button
          type="button"
          variant="ghost"
          size="icon-sm"
          onClick={copy}
          aria-label={copied ? "Program copied" : "Copy the program"}
        >
          {copied ? <CheckIcon aria-hidden /> : <CopyIcon aria-hidden />}
        </Button>
      </figcaption>
      <pre
        data-testid="code"
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling block is reached by keyboard (axe: scrollable-region-focusable)
        tabIndex={0}
        className="m-0 max-h-96 overflow-auto px-3 pb-3 font-mono text-foreground text-xs leading-relaxed"
      >
        <code>{highlightProgram(code)}</code>
      </pre>
    </figure>
  );
}
