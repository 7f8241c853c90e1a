/**
 * The free names the samples of README.md and docs/*.md assume (a model, your tools, a runtime built in an earlier
 * sample), declared as globals for `scripts/check-readme-samples.ts`; a sample that declares the
 * same name shadows them. Copied into the check's project as a `.ts` file, so it is checked too.
 */
declare global {
  const model: import("ai").LanguageModel;
  const prompt: string;
  const myToolSet: import("ai").ToolSet;
  const githubTools: import("ai").ToolSet;
  const github: import("ai").ToolSet;
  const billingTools: import("ai").ToolSet;
  const billingApi: { cancelRefund(refundId: string): Promise<void> };
  const mcpClient: { tools(): Promise<import("ai").ToolSet> };
  const runtime: import("ai-codemode").CodemodeRuntime;
  // Tools of the tool-caller samples (the migration section defines the last two).
  const getWeather: import("ai").Tool<{ city: string }, { tempC: number }>;
  const transfer: import("ai").Tool<{ to: string; amount: number }, { ok: boolean }>;
  const getInventory: import("ai").Tool<{ productId: string }, { productId: string; availableUnits: number }>;
  const placeOrder: import("ai").Tool<{ productId: string; units: number }, { orderId: string }>;
  const executionId: string;
  /** The chat workflow of docs/workflow.md (a `"use workflow"` function), as its route imports it. */
  const chat: (messages: import("ai").ModelMessage[], userId: string) => Promise<void>;
  /** The chat route's approval secret (at least 32 bytes). */
  const toolApprovalSecret: string;
  function getToken(): Promise<string>;
  function isAdmin(request: Request): boolean | Promise<boolean>;
  function auth(request: Request): Promise<{ userId: string }>;
  function signedInUser(request: Request): Promise<{ id: string; isAdmin: boolean } | undefined>;
}

export {};
