/**
 * The model's `svc` connector writing its effects to an append-only file, so
 * effects can be counted across processes (a killed one included).
 */
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import type { Connector, ConnectorRevertContext } from "../../../src/connectors/types.js";
import type { ObservedEffect } from "./crash-scenario.js";

/** `svc` with the same methods as `svcConnector()`, effects appended to `file`. */
export function fileLedgerConnector(file: string): Connector {
  const note = (
    kind: "execute" | "revert",
    context: Pick<ConnectorRevertContext, "method" | "idempotencyKey">,
  ): void => {
    appendFileSync(file, `${JSON.stringify({ kind, method: context.method, key: context.idempotencyKey })}\n`);
  };
  const result = (args: unknown) => ({ d: (args as { n: number }).n * 2, k: (args as { k: string }).k });
  const revert = async (_args: unknown, _result: unknown, context: ConnectorRevertContext) => {
    note("revert", context);
  };
  return {
    methods: {
      plain: {
        execute: async (args, context) => {
          note("execute", context);
          return result(args);
        },
      },
      rev: {
        execute: async (args, context) => {
          note("execute", context);
          return result(args);
        },
        revert,
      },
      gated: {
        needsApproval: true,
        execute: async (args, context) => {
          note("execute", context);
          return result(args);
        },
        revert,
      },
      fail: {
        execute: async (_args, context) => {
          note("execute", context);
          throw new Error("nope");
        },
      },
      read: {
        replay: "reexecute",
        execute: async (args, context) => {
          note("execute", context);
          return result(args);
        },
      },
    },
  };
}

/** The effects written to `file` so far. */
export function readLedger(file: string): ObservedEffect[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as ObservedEffect);
}
