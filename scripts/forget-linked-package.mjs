// The example installs ai-codemode from this repository (file:../.., install-links=true). npm keeps the
// dependency list it recorded for that copy in the example's lock file and does not re-read the package's
// package.json, so a dependency added to the package later is never installed there (a Next.js build then
// fails with "Module not found"). Dropping the recorded entry makes `npm install` resolve the copy anew.
import { readFileSync, writeFileSync } from "node:fs";

const file = process.argv[2] ?? "package-lock.json";
const lock = JSON.parse(readFileSync(file, "utf8"));
delete lock.packages?.["node_modules/ai-codemode"];
writeFileSync(file, `${JSON.stringify(lock, null, 2)}\n`);
