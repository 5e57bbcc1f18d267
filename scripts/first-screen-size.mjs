// After `vite build`: the JavaScript the first screen loads (the entry and every chunk it imports
// statically, which the page preloads), gzip-compressed, and the early script the page's head runs
// before it (vite.config.ts earlyScript). Fails the build past either budget.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export const FIRST_SCREEN_BUDGET_BYTES = 150 * 1024;
/** The early script stays a small one: the head waits for it. */
export const EARLY_SCRIPT_BUDGET_BYTES = 3 * 1024;
const dist = process.argv[2] ?? "dist/client";
const manifest = JSON.parse(readFileSync(join(dist, ".vite/manifest.json"), "utf8"));

/** The entry chunk and its static imports, each once. */
function firstScreenChunks() {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visit(key);
  return [...seen].map((key) => manifest[key].file);
}

const gzipSize = (file) => gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
const sizes = firstScreenChunks().map((file) => ({ file, gzip: gzipSize(file) }));
const total = sizes.reduce((sum, s) => sum + s.gzip, 0);
const kB = (n) => `${(n / 1024).toFixed(1)} kB`;
for (const s of sizes) console.log(`  ${s.file}  ${kB(s.gzip)} gzip`);
console.log(`First screen JavaScript: ${kB(total)} gzip (budget ${kB(FIRST_SCREEN_BUDGET_BYTES)})`);
if (total > FIRST_SCREEN_BUDGET_BYTES) {
  console.error(`The first screen loads more than ${kB(FIRST_SCREEN_BUDGET_BYTES)} of JavaScript: load the rest on demand.`);
  process.exit(1);
}
const early = gzipSize("early-catalogue.js");
console.log(`Early script (early-catalogue.js): ${kB(early)} gzip (budget ${kB(EARLY_SCRIPT_BUDGET_BYTES)})`);
if (early > EARLY_SCRIPT_BUDGET_BYTES) {
  console.error(`The early script is over ${kB(EARLY_SCRIPT_BUDGET_BYTES)}: it should import only what the first requests need.`);
  process.exit(1);
}
