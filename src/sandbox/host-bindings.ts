/**
 * The host side of the call bridge: finds the binding a program called, decodes its arguments and
 * encodes its result, within the value bound (`maxValueChars`). Plain-JSON arguments (most calls)
 * are read with `JSON.parse` alone; encoding a host result stops as soon as it is certain to pass
 * the bound, so an oversized result costs the host no more than the bound.
 */
import { CodecError, deserializeValue, serializeValueTagged } from "./codec.js";
import { memberPath } from "./codec-validation.js";
import type { HostCaller, HostReply, SessionBinding } from "./session-types.js";
import type { CodeBindingFunction, CodeBindingNamespace } from "./types.js";
import { oversizedArguments, tooLongMessage } from "./boundary-messages.js";
import { messageOf } from "../shared/message-of.js";

function oversizedMessage(chars: number, max: number): string {
  return (
    `would be ${chars.toLocaleString("en-US")} characters once encoded, over the journal's limit of ${max.toLocaleString("en-US")} ` +
    "(maxValueChars); they were never sent to the host"
  );
}

/** Reads a value the sandbox encoded: plain JSON directly, tagged codec JSON validated and decoded. */
export function readSandboxValue(json: string, tagged: boolean, path: string): unknown {
  if (tagged) return deserializeValue(json, { path });
  try {
    return JSON.parse(json) as unknown;
  } catch (error) {
    throw new CodecError({ path, message: "not valid JSON", cause: error });
  }
}

/** Collects member names (own, function-valued) and makes the host side of the call bridge. */
export function prepareBindings(
  namespaces: CodeBindingNamespace[],
  maxValueChars: number,
): { bindings: SessionBinding[]; callHost: HostCaller } {
  const table: Array<{ global: string; names: string[]; fns: CodeBindingFunction[]; unavailable?: string }> = [];
  for (const namespace of namespaces) {
    const names: string[] = [];
    const fns: CodeBindingFunction[] = [];
    for (const name of Object.keys(namespace.functions)) {
      const fn = Object.getOwnPropertyDescriptor(namespace.functions, name)?.value as unknown;
      if (typeof fn === "function") {
        names.push(name);
        fns.push(fn as CodeBindingFunction);
      }
    }
    const { unavailable } = namespace;
    table.push({
      global: namespace.global,
      names,
      fns,
      ...(names.length === 0 && typeof unavailable === "string" ? { unavailable: unavailable.slice(0, 2_000) } : {}),
    });
  }
  const answer = async (
    ns: number,
    fn: number,
    argsJson: string,
    tagged: boolean,
    oversize: number | undefined,
  ): Promise<HostReply> => {
    const entry = table[ns];
    const binding = entry?.fns[fn];
    const name = entry?.names[fn];
    if (entry === undefined || binding === undefined || name === undefined)
      return { ok: false, message: "unknown binding" };
    const label = memberPath(entry.global, name);
    // The sandbox measured the arguments already; this guards against a sandbox that did not.
    if (argsJson.length > maxValueChars)
      return { ok: false, message: tooLongMessage(`${label} arguments`, argsJson.length, maxValueChars) };
    let value: unknown;
    const refused =
      oversize === undefined
        ? undefined
        : new CodecError({
            path: `${label} arguments`,
            overLimit: true,
            message: oversizedMessage(oversize, maxValueChars),
          });
    try {
      value = await binding(
        refused === undefined ? readSandboxValue(argsJson, tagged, `${label} arguments`) : oversizedArguments(refused),
      );
    } catch (error) {
      return { ok: false, message: messageOf(error) };
    }
    try {
      const { text, tagged: resultTagged } = serializeValueTagged(value, {
        path: `${label} result`,
        maxChars: maxValueChars,
      });
      if (text.length > maxValueChars) {
        return {
          ok: false,
          message: tooLongMessage(
            `The result of ${label}`,
            text.length,
            maxValueChars,
            "Ask for less: a page, a filter, or fewer fields.",
          ),
        };
      }
      return { ok: true, json: text, tagged: resultTagged };
    } catch (error) {
      if (refused !== undefined && error === refused) return { ok: false, message: refused.message };
      if (CodecError.isInstance(error) && (error as CodecError).overLimit) {
        return {
          ok: false,
          message: `The result of ${label} is ${(error as CodecError).message.replace(/^value: /, "")} (maxValueChars, the journal's limit). Ask for less: a page, a filter, or fewer fields.`,
        };
      }
      return { ok: false, message: messageOf(error) };
    }
  };
  // Never rejects: a reply the sandbox waits for must come, whatever a binding threw.
  const callHost: HostCaller = (ns, fn, argsJson, tagged, oversize) =>
    answer(ns, fn, argsJson, tagged, oversize).catch((error: unknown) => ({ ok: false, message: messageOf(error) }));
  return {
    bindings: table.map(({ global, names, unavailable }) => ({
      global,
      functions: names,
      ...(unavailable === undefined ? {} : { unavailable }),
    })),
    callHost,
  };
}
