import path from "node:path";
import type { NextConfig } from "next";

const repositoryRoot = path.join(import.meta.dirname, "../..");

const nextConfig: NextConfig = {
  // Loaded by Node at run time instead of bundled: the libSQL client has a native binding,
  // QuickJS loads its .wasm file next to its module, and ai-codemode (linked from ../..)
  // resolves both from its own node_modules.
  serverExternalPackages: [
    "ai-codemode",
    "@libsql/client",
    "libsql",
    "quickjs-emscripten-core",
    "@jitl/quickjs-wasmfile-release-sync",
  ],
  // ai-codemode is a symlink to the repository root; let Next trace files up to there.
  outputFileTracingRoot: repositoryRoot,
  turbopack: { root: repositoryRoot },
};

export default nextConfig;
