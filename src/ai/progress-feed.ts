/**
 * Folds a run's progress reports into snapshots and throttles them. The rule: the first
 * report is published at once; after that at most one snapshot per `throttleMs`: a report
 * inside the window marks the snapshot dirty and one trailing snapshot is published when
 * the window ends (by a timer, or by the first report after it, whichever comes first —
 * a busy program may not let timers run); `close()` returns the last state. Snapshots keep the latest
 * `maxCalls` calls and `maxLogs` lines with totals and per-state counts, so a
 * 10,000-call program costs at most one snapshot of bounded size per window.
 */
import type { CallState } from "../runtime/call-state.js";
import type { CallProgress, ProgressEvent } from "../runtime/pass/progress-events.js";
import { displayJson } from "../shared/display-value.js";
import type { CodemodeProgress } from "./codemode-progress.js";

/** Default minimum time between two progress snapshots. */
export const DEFAULT_PROGRESS_THROTTLE_MS = 100;
/** Default number of calls a progress snapshot keeps (the latest). */
export const DEFAULT_PROGRESS_MAX_CALLS = 50;
/** Default number of console lines a progress snapshot keeps (the latest). */
export const DEFAULT_PROGRESS_MAX_LOGS = 50;

/** Arguments longer than this (as JSON) are shown as a preview. */
export const MAX_PROGRESS_ARGS_CHARS = 1_000;

/** Throttle and size of progress snapshots. */
export interface ProgressFeedOptions {
  /** At most one snapshot per this many milliseconds (after the first). */
  throttleMs: number;
  /** Calls kept in a snapshot (the latest ones). */
  maxCalls: number;
  /** Console lines kept in a snapshot (the latest ones). */
  maxLogs: number;
}

/** Timers, injectable so tests control time. */
export interface FeedClock {
  now(): number;
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const systemClock: FeedClock = {
  now: () => Date.now(),
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Zero calls in every state. */
export function emptyCounts(): Record<CallState, number> {
  return {
    executing: 0,
    applied: 0,
    replayed: 0,
    pending: 0,
    approved: 0,
    rejected: 0,
    error: 0,
    reverted: 0,
    interrupted: 0,
  };
}

/** A call's arguments as a snapshot shows them: JSON, or `{ preview }` past `MAX_PROGRESS_ARGS_CHARS`. */
export function progressArgs(args: unknown): unknown {
  const json = displayJson(args);
  const text = JSON.stringify(json) ?? "null";
  return text.length <= MAX_PROGRESS_ARGS_CHARS ? json : { preview: `${text.slice(0, MAX_PROGRESS_ARGS_CHARS)}…` };
}

/** Accumulates reports and publishes throttled snapshots to `publish`. */
export class ProgressFeed {
  readonly #options: ProgressFeedOptions;
  readonly #publish: (snapshot: CodemodeProgress) => void;
  readonly #clock: FeedClock;
  /** Latest calls by sequence number, in insertion order (oldest evicted first). */
  readonly #calls = new Map<number, CallProgress>();
  /** State of every call reported, for the counts. */
  readonly #states = new Map<number, CallState>();
  #counts = emptyCounts();
  #logs: string[] = [];
  #totalLogs = 0;
  #executionId: string | undefined;
  #lastPublishedAt: number | undefined;
  #timer: unknown;
  #dirty = false;

  constructor({
    options,
    publish,
    clock = systemClock,
  }: {
    options: ProgressFeedOptions;
    publish: (snapshot: CodemodeProgress) => void;
    clock?: FeedClock;
  }) {
    this.#options = options;
    this.#publish = publish;
    this.#clock = clock;
  }

  /** Takes one report and publishes now or schedules the trailing snapshot. */
  push(event: ProgressEvent): void {
    this.#executionId = event.executionId;
    if (event.type === "log") this.#addLog(event.line);
    else this.#updateCall(event);
    this.#dirty = true;
    const now = this.#clock.now();
    const wait = this.#lastPublishedAt === undefined ? 0 : this.#lastPublishedAt + this.#options.throttleMs - now;
    // Due: publish now (a busy program may not let the timer run before it ends).
    if (wait <= 0) {
      this.#cancelTimer();
      this.#emit();
      return;
    }
    this.#timer ??= this.#clock.setTimeout(() => {
      this.#timer = undefined;
      if (this.#dirty) this.#emit();
    }, wait);
  }

  #cancelTimer(): void {
    if (this.#timer !== undefined) this.#clock.clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  /** Cancels the pending trailing snapshot and returns the current state. */
  close(): CodemodeProgress {
    this.#cancelTimer();
    this.#dirty = false;
    return this.snapshot();
  }

  /** The current state. */
  snapshot(): CodemodeProgress {
    return {
      status: "running",
      ...(this.#executionId === undefined ? {} : { executionId: this.#executionId }),
      calls: [...this.#calls.values()].map((call) => ({ ...call })),
      totalCalls: this.#states.size,
      counts: { ...this.#counts },
      logs: [...this.#logs],
      totalLogs: this.#totalLogs,
    };
  }

  #emit(): void {
    this.#dirty = false;
    this.#lastPublishedAt = this.#clock.now();
    this.#publish(this.snapshot());
  }

  #addLog(line: string): void {
    this.#totalLogs += 1;
    this.#logs.push(line);
    if (this.#logs.length > this.#options.maxLogs) this.#logs.splice(0, this.#logs.length - this.#options.maxLogs);
  }

  #updateCall(event: Extract<ProgressEvent, { type: "call" }>): void {
    const previous = this.#states.get(event.seq);
    if (previous !== undefined) this.#counts[previous] -= 1;
    this.#counts[event.state] += 1;
    this.#states.set(event.seq, event.state);
    const kept = this.#calls.get(event.seq);
    const call: CallProgress = {
      seq: event.seq,
      connector: event.connector,
      method: event.method,
      args: kept?.args ?? progressArgs(event.args),
      state: event.state,
      ...(event.durationMs === undefined ? {} : { durationMs: event.durationMs }),
      ...(event.error === undefined ? {} : { error: event.error }),
    };
    if (kept !== undefined) this.#calls.set(event.seq, call);
    else {
      this.#calls.set(event.seq, call);
      if (this.#calls.size > this.#options.maxCalls) {
        const oldest = this.#calls.keys().next().value;
        if (oldest !== undefined) this.#calls.delete(oldest);
      }
    }
  }
}
