/**
 * A hand-written connector for tests, with a side-effect ledger: each method
 * returns a fixed value or computes one from its arguments, may need approval,
 * may fail, may be revertible, and records every real execution and revert.
 */
import type { Connector, ConnectorMethod, ReplayPolicy } from "../connectors/types.js";
import { SideEffectLedger } from "./side-effect-ledger.js";

/** How one mock method behaves. */
export interface MockMethodOptions {
  description?: string;
  /** The result: a value, or a function of the arguments (may be async). @default the arguments echoed back */
  result?: unknown;
  /** Throw this message instead of returning. */
  fails?: string;
  /** Whether a call needs approval (a function decides per call). @default false */
  needsApproval?: boolean | ((args: unknown) => boolean);
  replay?: ReplayPolicy;
  /** The method only reads: journaled without a store round trip of its own (`ConnectorMethod.readOnly`). */
  readOnly?: boolean;
  /** Give the method a `revert` (recorded in the ledger); a string makes the revert throw that message. @default false */
  revert?: boolean | string;
  /** JSON Schema of the input (used by `describe`; validation only with `validate`). */
  inputSchema?: ConnectorMethod["inputSchema"];
  /** Validates arguments before anything runs (see `ConnectorMethod.validate`). */
  validate?: ConnectorMethod["validate"];
  /** An approver may change a pending call's arguments (`ConnectorMethod.editable`). @default false */
  editable?: boolean;
}

/** A mock connector plus the ledger it writes to. */
export interface MockConnector extends Connector {
  ledger: SideEffectLedger;
}

/**
 * Creates a mock connector named `name` (the name goes into ledger entries).
 *
 * @example
 * const shop = createMockConnector("shop", { methods: { buy: { needsApproval: true, revert: true } } });
 * const runtime = createCodemodeRuntime({ connectors: { shop } });
 * // … shop.ledger.count("shop.buy") === 1
 */
export function createMockConnector(
  name: string,
  {
    methods,
    ledger = new SideEffectLedger(),
    description,
  }: { methods: Record<string, MockMethodOptions>; ledger?: SideEffectLedger; description?: string },
): MockConnector {
  const built: Record<string, ConnectorMethod> = {};
  for (const [method, options] of Object.entries(methods)) {
    const definition: ConnectorMethod = {
      async execute(args, context) {
        ledger.record({ kind: "execute", connector: name, method, args, idempotencyKey: context.idempotencyKey });
        if (options.fails !== undefined) throw new Error(options.fails);
        const result = options.result;
        if (typeof result === "function") return (await (result as (args: unknown) => unknown)(args)) as unknown;
        return "result" in options ? result : args;
      },
    };
    if (options.description !== undefined) definition.description = options.description;
    if (options.needsApproval !== undefined) definition.needsApproval = options.needsApproval;
    if (options.replay !== undefined) definition.replay = options.replay;
    if (options.readOnly !== undefined) definition.readOnly = options.readOnly;
    if (options.inputSchema !== undefined) definition.inputSchema = options.inputSchema;
    if (options.validate !== undefined) definition.validate = options.validate;
    if (options.editable !== undefined) definition.editable = options.editable;
    if (options.revert !== undefined && options.revert !== false) {
      const failure = options.revert;
      definition.revert = async (args, _result, context) => {
        ledger.record({ kind: "revert", connector: name, method, args, idempotencyKey: context.idempotencyKey });
        if (typeof failure === "string") throw new Error(failure);
      };
    }
    built[method] = definition;
  }
  return { ledger, methods: built, ...(description === undefined ? {} : { description }) };
}
