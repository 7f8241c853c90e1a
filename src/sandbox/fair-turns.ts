/**
 * The worker pool's fairness across keys (`CodeRunRequest.fairnessKey`): how many workers each key holds, at most
 * a share of the pool per key, and the runs waiting for a worker in one queue per key, served in turn across keys
 * (a key served goes to the back of the turn). Runs without a key are one more key, with no bound.
 */

/** Runs without a fairness key share this one. */
export const UNKEYED = Symbol("unkeyed");

/** A run's fairness key. */
export type Key = string | typeof UNKEYED;

/** Waiting runs by key and the workers each key holds. */
export class FairTurns<Waiter extends { key: Key }> {
  /** Queues by key; the map's order is the turn. */
  private readonly waiting = new Map<Key, Waiter[]>();
  /** Workers held (or being started, or claimed from the warm start) per key. */
  private readonly held = new Map<Key, number>();

  /** `share()`: the workers one key may hold. */
  constructor(private readonly share: () => number) {}

  /** Runs waiting. */
  get size(): number {
    let count = 0;
    for (const queue of this.waiting.values()) count += queue.length;
    return count;
  }

  /** Whether runs of `key` are waiting (a new one queues behind them). */
  isWaiting(key: Key): boolean {
    return this.waiting.has(key);
  }

  mayHoldMore(key: Key): boolean {
    return key === UNKEYED || (this.held.get(key) ?? 0) < this.share();
  }

  /** Counts `by` more (or fewer) workers held by `key`. */
  count(key: Key, by: number): void {
    const next = (this.held.get(key) ?? 0) + by;
    if (next > 0) this.held.set(key, next);
    else this.held.delete(key);
  }

  push(waiter: Waiter): void {
    const queue = this.waiting.get(waiter.key);
    if (queue === undefined) this.waiting.set(waiter.key, [waiter]);
    else queue.push(waiter);
  }

  /** Removes a waiter from its queue; false when it was served already. */
  remove(waiter: Waiter): boolean {
    const queue = this.waiting.get(waiter.key);
    const index = queue === undefined ? -1 : queue.indexOf(waiter);
    if (queue === undefined || index === -1) return false;
    queue.splice(index, 1);
    if (queue.length === 0) this.waiting.delete(waiter.key);
    return true;
  }

  /** The next waiter in turn whose key may hold one more worker, or undefined; `take` removes it. */
  next(take: boolean): Waiter | undefined {
    for (const [key, queue] of this.waiting) {
      if (!this.mayHoldMore(key)) continue;
      if (!take) return queue[0];
      const waiter = queue.shift();
      // Served: the key goes to the back of the turn (or leaves it, with nobody waiting).
      this.waiting.delete(key);
      if (queue.length > 0) this.waiting.set(key, queue);
      return waiter;
    }
    return undefined;
  }
}
