/** Sets an environment variable for the rest of the running test; the previous value (or its absence) comes back after it. */
import { onTestFinished } from "vitest";

export function setEnvForTest(name: string, value: string): void {
  const previous = process.env[name];
  process.env[name] = value;
  onTestFinished(() => {
    if (previous === undefined) delete process.env[name];
    else process.env[name] = previous;
  });
}
