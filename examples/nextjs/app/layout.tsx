import type { ReactNode } from "react";

export const metadata = { title: "ai-codemode approvals" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", margin: 0, background: "#f6f7f9", color: "#1c1e21" }}>
        {children}
      </body>
    </html>
  );
}
