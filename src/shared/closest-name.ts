/**
 * The closest known name to a misspelt one, for messages such as "did you mean
 * `needsApproval`?". Bounded: names are compared up to a fixed length and with a
 * banded edit distance, so a hostile 40,000-character name costs no more than a short one.
 */

/** Names longer than this are compared by their first `MAX_COMPARED_CHARS` characters. */
const MAX_COMPARED_CHARS = 64;

/** Edit distance between `a` and `b` if it is at most `limit`, else `limit + 1`. */
export function boundedEditDistance(a: string, b: string, limit: number): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i += 1) {
    const current = [i];
    let rowMinimum = i;
    for (let j = 1; j <= b.length; j += 1) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      const value = Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution);
      current.push(value);
      if (value < rowMinimum) rowMinimum = value;
    }
    if (rowMinimum > limit) return limit + 1;
    previous = current;
  }
  return Math.min(previous[b.length]!, limit + 1);
}

/**
 * The known name closest to `name` (case-insensitive edit distance at most a third of its
 * length, at least 2), or `undefined` when none is close. Ties go to the first in `known`.
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
  const wanted = name.slice(0, MAX_COMPARED_CHARS).toLowerCase();
  const limit = Math.max(2, Math.floor(wanted.length / 3));
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const distance = boundedEditDistance(wanted, candidate.slice(0, MAX_COMPARED_CHARS).toLowerCase(), limit);
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return best;
}
