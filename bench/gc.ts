/**
 * A full collection between measurements (with `node --expose-gc`, as `npm run bench` runs), so
 * the garbage one engine leaves is not collected on the next one's time. Without it the `run`
 * package's garbage (hundreds of MB per round) made our in-process bridge, which allocates on the
 * host heap, pay V8's incremental marking: 20 → 900 µs per call over four rounds.
 */
export function collectGarbage(): void {
  (globalThis as { gc?: () => void }).gc?.();
}
