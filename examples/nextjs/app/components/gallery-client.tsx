"use client";

import dynamic from "next/dynamic";

/** The gallery, rendered in the browser only (see app/chat-client.tsx: `ai-codemode/react` is not server-rendered). */
export const GalleryClient = dynamic(() => import("./gallery").then((module) => module.Gallery), {
  ssr: false,
  loading: () => <p className="px-4 py-6 text-muted-foreground text-sm">Loading the components…</p>,
});
