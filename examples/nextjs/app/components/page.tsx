import { GalleryClient } from "./gallery-client";

export const metadata = { title: "ai-codemode components" };

/** The installed codemode components in each of their states, with fixed parts (no model, no server). */
export default function Page() {
  return <GalleryClient />;
}
