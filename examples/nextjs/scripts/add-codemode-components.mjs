// Installs the codemode chat components (CodemodeRun, CodemodeProgram, CodemodeCalls, CodemodeApproval) from the
// shadcn/ui registry items the ai-codemode package ships, as a user does: `shadcn add <item.json>`.
//
//   node scripts/add-codemode-components.mjs            installs them into this app (components/codemode-*.tsx)
//   node scripts/add-codemode-components.mjs --check    installs them into a temporary copy of this app and fails
//                                                       when a file differs from the committed one (no drift)
//   --from <dir>   the directory of the registry items (default: node_modules/ai-codemode/registry/r, the
//                  installed copy of the package)
//
// Offline: the items declare the shadcn primitives they use (button, badge, collapsible, input, label, textarea) as
// registryDependencies, which the CLI resolves at ui.shadcn.com together with the base colour (colors/neutral.json).
// This app has those primitives as its own files (components/ui), so a stand-in registry on 127.0.0.1 serves them
// (REGISTRY_URL) and a base colour without variables (app/globals.css holds the theme). Online, plain
// `npx shadcn add node_modules/ai-codemode/registry/r/codemode-run.json` does the same.
import { spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";

const appDir = path.resolve(import.meta.dirname, "..");
const args = process.argv.slice(2);
const check = args.includes("--check");
const fromIndex = args.indexOf("--from");
const from = path.resolve(
  fromIndex === -1 ? path.join(appDir, "node_modules/ai-codemode/registry/r") : args[fromIndex + 1],
);
/** The item holding every component (the other items are subsets of it). */
const ITEM = "codemode-run.json";
/** The files of this app a copy needs for `shadcn add` (no node_modules: the items' dependencies are listed). */
const PROJECT_FILES = [
  "package.json",
  "components.json",
  "tsconfig.json",
  "app/globals.css",
  "lib/utils.ts",
  "components/ui",
];

/** The shadcn CLI: this app's, or the one SHADCN_BIN names. */
function shadcnBin() {
  if (process.env.SHADCN_BIN) return path.resolve(process.env.SHADCN_BIN);
  const local = path.join(appDir, "node_modules/.bin/shadcn");
  if (!existsSync(local)) throw new Error("shadcn is not installed here: run npm install first");
  return local;
}

/** A stand-in for ui.shadcn.com/r: this app's primitives as registry items, and a base colour without variables. */
function startStandIn() {
  const server = createServer((request, response) => {
    const url = request.url ?? "";
    const primitive = /^\/r\/styles\/[^/]+\/([a-z-]+)\.json$/.exec(url)?.[1];
    const file = primitive === undefined ? undefined : path.join(appDir, "components/ui", `${primitive}.tsx`);
    response.setHeader("content-type", "application/json");
    if (file !== undefined && existsSync(file)) {
      const content = readFileSync(file, "utf8");
      response.end(
        JSON.stringify({
          name: primitive,
          type: "registry:ui",
          files: [{ path: `ui/${primitive}.tsx`, type: "registry:ui", content }],
        }),
      );
      return;
    }
    if (/^\/r\/colors\/[a-z]+\.json$/.test(url)) {
      const none = { light: {}, dark: {} };
      response.end(
        JSON.stringify({
          inlineColors: none,
          cssVars: none,
          cssVarsV4: none,
          inlineColorsTemplate: "",
          cssVarsTemplate: "",
        }),
      );
      return;
    }
    response.statusCode = 404;
    response.end(JSON.stringify({ error: `not served offline: ${url}` }));
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

/** Runs `shadcn add <item> --yes --overwrite` in `cwd` against the stand-in registry (asynchronously: it serves). */
function add(cwd, port) {
  const child = spawn(shadcnBin(), ["add", path.join(from, ITEM), "--yes", "--overwrite", "--cwd", cwd], {
    cwd,
    env: { ...process.env, REGISTRY_URL: `http://127.0.0.1:${port}/r`, CI: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => {
    output += chunk;
  });
  child.stderr.on("data", (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(output) : reject(new Error(`shadcn add failed (${code}):\n${output}`)),
    );
  });
}

/** The files an item installs, relative to the app: components/<file name>. */
function installedFiles() {
  const item = JSON.parse(readFileSync(path.join(from, ITEM), "utf8"));
  return item.files.map((file) => path.join("components", path.basename(file.path)));
}

const server = await startStandIn();
const port = server.address().port;
try {
  if (!check) {
    process.stdout.write(await add(appDir, port));
  } else {
    const copy = mkdtempSync(path.join(tmpdir(), "codemode-ui-check-"));
    try {
      for (const file of PROJECT_FILES) cpSync(path.join(appDir, file), path.join(copy, file), { recursive: true });
      await add(copy, port);
      const differing = [];
      for (const file of installedFiles()) {
        const installed = readFileSync(path.join(copy, file), "utf8");
        const committed = existsSync(path.join(appDir, file))
          ? readFileSync(path.join(appDir, file), "utf8")
          : undefined;
        if (installed !== committed) differing.push(file);
      }
      // Nothing else changed: the primitives served are this app's own, so the copy's components/ui is unchanged.
      for (const name of readdirSync(path.join(copy, "components/ui"))) {
        const file = path.join("components/ui", name);
        if (readFileSync(path.join(copy, file), "utf8") !== readFileSync(path.join(appDir, file), "utf8"))
          differing.push(file);
      }
      if (differing.length > 0) {
        console.error(
          `These files differ from what \`shadcn add ${path.join(from, ITEM)}\` installs (run npm run codemode-ui):\n  ${differing.join("\n  ")}`,
        );
        process.exitCode = 1;
      } else {
        console.log(`${installedFiles().length} files match the registry items in ${from}`);
      }
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  }
} finally {
  server.close();
}
