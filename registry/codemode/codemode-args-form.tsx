"use client";

import { type ComponentProps, useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { Textarea } from "@/components/ui/textarea";
import { cn } from "@/lib/utils";

/** The part of a JSON Schema the form reads. */
export interface CodemodeArgsSchema {
  type?: string | string[];
  properties?: Record<string, CodemodeArgsSchema>;
  required?: string[];
  enum?: unknown[];
  description?: string;
  title?: string;
}

/** The arguments as the person edits them: unchanged, changed (parsed), or not valid. */
export type CodemodeArgsEdit = { changed: false } | { changed: true; args: unknown } | { changed: true; error: string };

/** A field's kind, from its schema (or, with no schema, from the value the program passed). */
type FieldKind = "string" | "number" | "integer" | "boolean" | "enum" | "json";

function kindOf(schema: CodemodeArgsSchema | undefined, value: unknown): FieldKind {
  if (schema?.enum && schema.enum.length > 0 && schema.enum.every((option) => typeof option === "string"))
    return "enum";
  const type = Array.isArray(schema?.type) ? schema?.type.find((entry) => entry !== "null") : schema?.type;
  if (type === "string" || type === "number" || type === "integer" || type === "boolean") return type;
  if (type !== undefined) return "json";
  if (typeof value === "string") return "string";
  if (typeof value === "number") return "number";
  if (typeof value === "boolean") return "boolean";
  return "json";
}

/** The fields of an object schema (or of the object the program passed, when no schema says). */
function fieldsOf(schema: CodemodeArgsSchema | undefined, args: unknown): string[] | undefined {
  if (typeof args !== "object" || args === null || Array.isArray(args)) return undefined;
  const names = new Set([...Object.keys(schema?.properties ?? {}), ...Object.keys(args)]);
  return [...names];
}

/** A field's text in the form and its value back. */
function toText(kind: FieldKind, value: unknown): string {
  if (value === undefined) return "";
  if (kind === "json") return JSON.stringify(value, null, 2) ?? "";
  return String(value);
}

function fromText(kind: FieldKind, text: string, required: boolean): { value: unknown } | { error: string } {
  if (kind === "string" || kind === "enum") return { value: text };
  if (text.trim() === "") return required ? { error: "is required" } : { value: undefined };
  if (kind === "number" || kind === "integer") {
    const number = Number(text);
    if (!Number.isFinite(number)) return { error: "is not a number" };
    if (kind === "integer" && !Number.isInteger(number)) return { error: "is not a whole number" };
    return { value: number };
  }
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (cause) {
    return { error: `is not valid JSON (${cause instanceof Error ? cause.message : String(cause)})` };
  }
}

export type CodemodeArgsFormProps = Omit<ComponentProps<"fieldset">, "onChange"> & {
  /** The arguments the program passed. */
  args: unknown;
  /** The call's input schema, when the app has it; without one the fields follow the arguments' own types. */
  schema?: CodemodeArgsSchema;
  /** A request is on its way: the form waits. */
  busy?: boolean;
  onEdit: (edit: CodemodeArgsEdit) => void;
};

/**
 * Approve with changes: a form generated from the call's input schema (text, numbers, switches, choices; JSON for
 * anything else), or the whole arguments as JSON. Invalid input is said next to its field and blocks approval.
 */
export function CodemodeArgsForm({ args, schema, busy = false, onEdit, className, ...props }: CodemodeArgsFormProps) {
  const fields = fieldsOf(schema, args);
  const [mode, setMode] = useState<"fields" | "json">(fields === undefined ? "json" : "fields");
  const original = JSON.stringify(args, null, 2) ?? "";
  const [json, setJson] = useState(original);
  const [jsonError, setJsonError] = useState<string | undefined>(undefined);
  const record = (typeof args === "object" && args !== null ? args : {}) as Record<string, unknown>;
  const [texts, setTexts] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      (fields ?? []).map((name) => [name, toText(kindOf(schema?.properties?.[name], record[name]), record[name])]),
    ),
  );
  const [errors, setErrors] = useState<Record<string, string>>({});
  const id = useId();

  const changeJson = (next: string) => {
    setJson(next);
    if (next === original) {
      setJsonError(undefined);
      return onEdit({ changed: false });
    }
    try {
      const parsed: unknown = JSON.parse(next);
      setJsonError(undefined);
      onEdit({ changed: true, args: parsed });
    } catch (cause) {
      const message = cause instanceof Error ? cause.message : String(cause);
      setJsonError(message);
      onEdit({ changed: true, error: message });
    }
  };

  const changeField = (name: string, text: string) => {
    const nextTexts = { ...texts, [name]: text };
    setTexts(nextTexts);
    const nextArgs: Record<string, unknown> = { ...record };
    const nextErrors: Record<string, string> = {};
    for (const field of fields ?? []) {
      const kind = kindOf(schema?.properties?.[field], record[field]);
      const parsed = fromText(kind, nextTexts[field] ?? "", schema?.required?.includes(field) ?? false);
      if ("error" in parsed) nextErrors[field] = `${field} ${parsed.error}`;
      else if (parsed.value === undefined) delete nextArgs[field];
      else nextArgs[field] = parsed.value;
    }
    setErrors(nextErrors);
    const firstError = Object.values(nextErrors)[0];
    if (firstError !== undefined) return onEdit({ changed: true, error: firstError });
    const changed = JSON.stringify(nextArgs) !== JSON.stringify(args);
    setJson(changed ? (JSON.stringify(nextArgs, null, 2) ?? "") : original);
    onEdit(changed ? { changed: true, args: nextArgs } : { changed: false });
  };

  const switchTo = (next: "fields" | "json") => {
    setMode(next);
    // Each view starts from the arguments as the program passed them; switching drops unsent edits.
    setJson(original);
    setJsonError(undefined);
    setTexts(
      Object.fromEntries(
        (fields ?? []).map((name) => [name, toText(kindOf(schema?.properties?.[name], record[name]), record[name])]),
      ),
    );
    setErrors({});
    onEdit({ changed: false });
  };

  return (
    <fieldset
      data-testid="approval-args-form"
      data-mode={mode}
      disabled={busy}
      className={cn("m-0 min-w-0 space-y-3 border-0 p-0", className)}
      {...props}
    >
      <legend className="mb-2 flex w-full items-center justify-between gap-2 font-medium text-muted-foreground text-xs uppercase tracking-wide">
        <span>Arguments — you may change them before approving</span>
        {fields === undefined ? null : (
          <Button
            type="button"
            variant="ghost"
            size="sm"
            className="h-7 text-xs normal-case"
            data-testid="approval-args-mode"
            onClick={() => switchTo(mode === "fields" ? "json" : "fields")}
          >
            {mode === "fields" ? "Edit as JSON" : "Edit as fields"}
          </Button>
        )}
      </legend>
      {mode === "json" || fields === undefined ? (
        <div className="space-y-1">
          <Label htmlFor={`${id}-json`} className="sr-only">
            Arguments of the call, as JSON
          </Label>
          <Textarea
            id={`${id}-json`}
            data-testid="approval-args-edit"
            aria-label="Arguments of the call, as JSON"
            aria-invalid={jsonError !== undefined}
            aria-describedby={jsonError === undefined ? undefined : `${id}-json-error`}
            value={json}
            spellCheck={false}
            rows={Math.min(14, original.split("\n").length + 1)}
            onChange={(event) => changeJson(event.target.value)}
            className="font-mono text-xs"
          />
          {jsonError === undefined ? null : (
            <p
              id={`${id}-json-error`}
              data-testid="approval-args-error"
              role="alert"
              className="text-destructive text-xs"
            >
              Not valid JSON: {jsonError}
            </p>
          )}
        </div>
      ) : (
        fields.map((name) => {
          const fieldSchema = schema?.properties?.[name];
          const kind = kindOf(fieldSchema, record[name]);
          const fieldId = `${id}-${name}`;
          const error = errors[name];
          const described = [fieldSchema?.description ? `${fieldId}-help` : "", error ? `${fieldId}-error` : ""]
            .filter(Boolean)
            .join(" ");
          const common = {
            id: fieldId,
            "data-testid": `approval-field-${name}`,
            "aria-invalid": error !== undefined,
            "aria-describedby": described === "" ? undefined : described,
          };
          return (
            <div key={name} className="space-y-1" data-field={name} data-kind={kind}>
              {kind === "boolean" ? (
                <div className="flex items-center gap-2">
                  <input
                    type="checkbox"
                    {...common}
                    checked={texts[name] === "true"}
                    onChange={(event) => changeField(name, String(event.target.checked))}
                    className="size-4 accent-primary"
                  />
                  <Label htmlFor={fieldId} className="font-mono text-xs">
                    {name}
                  </Label>
                </div>
              ) : (
                <>
                  <Label htmlFor={fieldId} className="font-mono text-xs">
                    {name}
                    {schema?.required?.includes(name) ? (
                      <span className="text-muted-foreground"> (required)</span>
                    ) : null}
                  </Label>
                  {kind === "enum" ? (
                    <select
                      {...common}
                      value={texts[name] ?? ""}
                      onChange={(event) => changeField(name, event.target.value)}
                      className="h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-xs focus-visible:border-ring focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring/50 dark:bg-input/30"
                    >
                      {((fieldSchema?.enum ?? []) as string[]).map((option) => (
                        <option key={option} value={option}>
                          {option}
                        </option>
                      ))}
                    </select>
                  ) : kind === "json" ? (
                    <Textarea
                      {...common}
                      value={texts[name] ?? ""}
                      spellCheck={false}
                      onChange={(event) => changeField(name, event.target.value)}
                      className="font-mono text-xs"
                    />
                  ) : (
                    <Input
                      {...common}
                      type={kind === "string" ? "text" : "number"}
                      step={kind === "integer" ? 1 : "any"}
                      value={texts[name] ?? ""}
                      onChange={(event) => changeField(name, event.target.value)}
                      className="font-mono text-xs"
                    />
                  )}
                </>
              )}
              {fieldSchema?.description ? (
                <p id={`${fieldId}-help`} className="text-muted-foreground text-xs">
                  {fieldSchema.description}
                </p>
              ) : null}
              {error ? (
                <p
                  id={`${fieldId}-error`}
                  data-testid="approval-args-error"
                  role="alert"
                  className="text-destructive text-xs"
                >
                  {error}
                </p>
              ) : null}
            </div>
          );
        })
      )}
    </fieldset>
  );
}
