import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's folder (the one with package.json), found from this module's own place, so the
 * same code finds it from the TypeScript sources (src/server) and from the built server
 * (dist/server/main.mjs, one file).
 */
function findProjectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}`);
  }
}

export const projectRoot = findProjectRoot(dirname(fileURLToPath(import.meta.url)));

/** True when running the built server (`npm start`), false when running the sources through tsx (tests, `npm run dev`). */
export const runningBuilt = !import.meta.url.endsWith(".ts");
