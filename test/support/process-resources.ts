/**
 * What a long-lived process holds, for the per-request leak tests: its threads and file descriptors (Linux
 * `/proc/self`), and a settle step that runs the garbage collector until finalizers and worker exits have run.
 */
import { readdirSync, readFileSync } from "node:fs";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Threads of this process. */
export function threads(): number {
  return Number(/^Threads:\s+(\d+)/m.exec(readFileSync("/proc/self/status", "utf8"))?.[1]);
}

/** Open file descriptors of this process. */
export function fds(): number {
  return readdirSync("/proc/self/fd").length;
}

/** Collects garbage five times, 100 ms apart: FinalizationRegistry callbacks, idle timers and worker exits run later. */
export async function settle(): Promise<void> {
  for (let round = 0; round < 5; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
