/**
 * Locates and starts the QuickJS worker. From the built package it is `dist/quickjs-worker.cjs`
 * (one bundled file beside the chunk that imports this file: `tsup.config.ts`); from the TypeScript sources (tests, tsx)
 * it is `quickjs-worker.ts`, loaded through tsx's `tsImport` when tsx is installed.
 */
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker, type WorkerOptions } from "node:worker_threads";
import { sandboxWorkerExecArgv } from "./worker-exec-argv.js";

function sourceWorkerBootstrap(source: URL): URL {
  const require = createRequire(import.meta.url);
  let tsxApi: string;
  try {
    tsxApi = pathToFileURL(join(dirname(require.resolve("tsx/package.json")), "dist/esm/api/index.mjs")).href;
  } catch (error) {
    throw new Error(
      `The QuickJS worker is only available as TypeScript (${source.href}) and tsx is not installed to load it; build the package first.`,
      { cause: error },
    );
  }
  const code = `const { tsImport } = await import(${JSON.stringify(tsxApi)});\nawait tsImport(${JSON.stringify(source.href)}, ${JSON.stringify(import.meta.url)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(code)}`);
}

/** Starts one QuickJS worker thread with the given options. */
export function startQuickJSWorker(workerOptions: WorkerOptions): Worker {
  const execArgv = sandboxWorkerExecArgv();
  const options = execArgv === undefined ? workerOptions : { ...workerOptions, execArgv };
  const built = new URL("./quickjs-worker.cjs", import.meta.url);
  if (built.protocol !== "file:" || existsSync(fileURLToPath(built))) return new Worker(built, options);
  const source = new URL("./quickjs-worker.ts", import.meta.url);
  if (existsSync(fileURLToPath(source))) return new Worker(sourceWorkerBootstrap(source), options);
  throw new Error(`The QuickJS worker file was not found next to ${import.meta.url} (expected quickjs-worker.cjs).`);
}
