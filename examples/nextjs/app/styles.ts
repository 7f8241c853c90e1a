/** The chat's inline styles (the example has no CSS build). */
import type { CSSProperties } from "react";

export const box: CSSProperties = {
  background: "#fff",
  border: "1px solid #d0d4da",
  borderRadius: 6,
  padding: 12,
  margin: "8px 0",
};
export const pre: CSSProperties = {
  background: "#0f172a",
  color: "#e2e8f0",
  padding: 10,
  borderRadius: 4,
  overflowX: "auto",
  fontSize: 13,
};
export const logsPre: CSSProperties = { ...pre, background: "#f1f5f9", color: "#334155" };
export const panel: CSSProperties = {
  border: "2px solid #f59e0b",
  borderRadius: 6,
  padding: 10,
  background: "#fffbeb",
};
export const argsPre: CSSProperties = { ...pre, background: "#fef3c7", color: "#1c1e21" };
export const note: CSSProperties = { fontSize: 12, color: "#666" };
export const STATE_COLOURS: Record<string, string> = {
  executing: "#2563eb",
  applied: "#059669",
  replayed: "#64748b",
  pending: "#d97706",
  rejected: "#b00020",
  error: "#b00020",
};
