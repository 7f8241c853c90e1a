/**
 * Waits for a server process to print `… on http://…` (as `ai-codemode mcp --http` and the test fixtures do) and
 * resolves with that URL; rejects with its stderr if it exits first.
 */
import type { ChildProcess } from "node:child_process";

export function listeningUrl(child: ChildProcess, what = "the server"): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on("data", (chunk: Buffer) => {
      out += chunk.toString();
      const url = /on (http:\/\/\S+)/.exec(out)?.[1];
      if (url !== undefined) resolve({ child, url });
    });
    child.once("exit", (code) => reject(new Error(`${what} exited (${code}): ${err}`)));
  });
}
