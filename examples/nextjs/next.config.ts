import type { NextConfig } from "next";
import { withWorkflow } from "workflow/next";

const nextConfig: NextConfig = {
  // Loaded by Node at run time instead of bundled: the libSQL client has a native binding,
  // QuickJS loads its .wasm file next to its module, and ai-codemode starts its sandbox
  // worker from a file beside its own chunk.
  serverExternalPackages: [
    "ai-codemode",
    "@libsql/client",
    "libsql",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ],
  // This folder is the app's root, not the repository around it (which has its own lock file).
  outputFileTracingRoot: import.meta.dirname,
  turbopack: { root: import.meta.dirname },
};

// The Workflow SDK's build plugin: `"use workflow"` / `"use step"` functions (workflows/chat.ts) are compiled into
// the workflow and step bundles, served under /.well-known/workflow/ (the `/workflow` chat).
export default withWorkflow(nextConfig);
