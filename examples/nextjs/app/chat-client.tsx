"use client";

import dynamic from "next/dynamic";

/**
 * The chat, rendered in the browser only. Its components use `ai-codemode/react`, and `ai-codemode` is one of the
 * `serverExternalPackages` (next.config.ts): on the server Node would load it with its own `import "react"`, a React
 * other than the one the App Router renders with, and the hooks would fail during server rendering.
 */
export const ChatClient = dynamic(() => import("./chat").then((module) => module.Chat), {
  ssr: false,
  loading: () => <p className="px-4 py-6 text-muted-foreground text-sm">Loading the chat…</p>,
});
