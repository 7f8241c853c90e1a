/**
 * The base of every error this package throws. Expected outcomes of programs (failures, pauses, conflicts) are
 * values, not errors; what is thrown is misuse (at construction or in a public method's arguments), broken
 * infrastructure, or a connector call's failure that the program sees as a rejection.
 */
const marker = "ai-codemode.error";
const symbol = Symbol.for(marker);

/** The `code` of each error class: one per class, so `error.code` tells them apart without `instanceof`. */
export type CodemodeErrorCode =
  | "invalid-option"
  | "invalid-argument"
  | "store"
  | "corrupt-record"
  | "codec"
  | "mcp-tool"
  | "openapi-response"
  | "unsafe-request"
  | "store-configuration"
  | "redirect"
  | "openapi-request"
  | "outbound-fetch"
  | "cli";

/** Base class of every error this package throws. */
export class CodemodeError extends Error {
  // biome-ignore lint/correctness/noUnusedPrivateClassMembers: read by `symbol in error` in isInstance.
  private readonly [symbol] = true;
  readonly code: CodemodeErrorCode;

  constructor({ code, message, cause }: { code: CodemodeErrorCode; message: string; cause?: unknown }) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = "CodemodeError";
    this.code = code;
  }

  /** The `code` of this class's instances (undefined on the base: any code). */
  static readonly errorCode: CodemodeErrorCode | undefined = undefined;

  /**
   * Whether `error` is an instance of the class this is called on (`StoreError.isInstance(error)`): the package's
   * marker and, below the base, the class's `errorCode`. Works across copies of the package.
   */
  static isInstance<T extends { prototype: CodemodeError; errorCode: CodemodeErrorCode | undefined }>(
    this: T,
    error: unknown,
  ): error is T["prototype"] {
    if (typeof error !== "object" || error === null || !(symbol in error)) return false;
    // biome-ignore lint/complexity/noThisInStatic: `this` is the class isInstance was called on (its errorCode).
    return this.errorCode === undefined || (error as { code?: unknown }).code === this.errorCode;
  }
}
