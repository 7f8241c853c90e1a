/**
 * A Workflow SDK app in a temporary folder, the way a user has one: `ai-codemode` installed from this package's
 * `dist/` (every other dependency linked from the repository's node_modules), the fixture app's workflow and step
 * bundles built by the SDK's own builder, and a local world (`@workflow/world-local`) in this process that runs
 * them. Nothing here fakes the SDK: the runs, hooks and steps are the local world's.
 */
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repo = fileURLToPath(new URL("../..", import.meta.url));

export interface WorkflowApp {
  folder: string;
  dataDir: string;
  outDir: string;
  db: string;
  effectsFile: string;
  /** The lines the app's tools wrote (`read <id>`, `effect <id>`). */
  effects(): string[];
  /** Removes the folder, again until it stays gone (the world's last writes may land after its close). */
  remove(): Promise<void>;
}

/** Creates the app folder and builds its bundles (the SDK's vitest builder, pointed at the folder). */
export async function createWorkflowApp(): Promise<WorkflowApp> {
  const folder = mkdtempSync(join(tmpdir(), "codemode-workflow-"));
  const modules = join(folder, "node_modules");
  mkdirSync(modules);
  for (const entry of readdirSync(join(repo, "node_modules"))) {
    if (entry !== "@workflow") symlinkSync(join(repo, "node_modules", entry), join(modules, entry));
  }
  // One version of each @workflow package, as an app's install has: the repository's node_modules holds two (the
  // vitest plugin's older `@workflow/core` and `@workflow/world` at the top, `workflow`'s own nested), and the step
  // bundle's external imports resolve from the app's folder.
  mkdirSync(join(modules, "@workflow"));
  const nested = join(repo, "node_modules", "workflow", "node_modules", "@workflow");
  for (const entry of readdirSync(join(repo, "node_modules", "@workflow"))) {
    const source = existsSync(join(nested, entry))
      ? join(nested, entry)
      : join(repo, "node_modules", "@workflow", entry);
    symlinkSync(source, join(modules, "@workflow", entry));
  }
  const installed = join(modules, "ai-codemode");
  mkdirSync(installed);
  cpSync(join(repo, "package.json"), join(installed, "package.json"));
  cpSync(join(repo, "dist"), join(installed, "dist"), { recursive: true });
  cpSync(join(repo, "test/workflow/fixtures/app"), folder, { recursive: true });
  const app: WorkflowApp = {
    folder,
    dataDir: join(folder, ".workflow-data"),
    outDir: join(folder, ".workflow-out"),
    db: `file:${join(folder, "codemode.db")}`,
    effectsFile: join(folder, "effects.log"),
    effects: () =>
      readFileSync(app.effectsFile, "utf8")
        .split("\n")
        .filter((line) => line !== ""),
    remove: async () => {
      for (let attempt = 0; attempt < 20 && existsSync(folder); attempt++) {
        rmSync(folder, { recursive: true, force: true });
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
  };
  writeFileSync(app.effectsFile, "");
  const { buildWorkflowTests } = await import(pathToFileURL(join(modules, "@workflow/vitest/dist/index.js")).href);
  await buildWorkflowTests({ cwd: folder, outDir: app.outDir, dataDir: app.dataDir });
  return app;
}
