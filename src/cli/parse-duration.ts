/**
 * Durations and instants on the command line: `--older-than 24h`, `--since 30m`
 * (an age) or `--since 2026-01-01T00:00:00Z` (an instant).
 */

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 };

/** `500ms`, `90s`, `30m`, `24h`, `7d`, `2w`, or combined (`1h30m`); undefined when not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim();
  if (!/^(\d+(\.\d+)?(ms|s|m|h|d|w))+$/.test(trimmed)) return undefined;
  let total = 0;
  for (const match of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g))
    total += Number(match[1]) * (UNIT_MS[match[2] ?? ""] ?? 0);
  return total;
}

/** An age (`30m` → `now - 30 min`) or an ISO instant, as ms since epoch; undefined when neither. */
export function parseSince(text: string, now: number): number | undefined {
  const age = parseDuration(text);
  if (age !== undefined) return now - age;
  if (!/^\d{4}-\d{2}-\d{2}/.test(text.trim())) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : at;
}
