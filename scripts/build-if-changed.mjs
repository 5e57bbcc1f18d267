// `npm start`: builds the client only when its sources changed since the last build, so a
// restart takes seconds. `npm run build` always builds and then records the sources' hash
// (`--record`).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const STAMP = "dist/client/.sources-hash";
/** Everything the client build reads. */
const INPUTS = ["src/client", "src/contract", "vite.config.ts", "package-lock.json", "tsconfig.json"];

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

const hash = createHash("sha256");
for (const file of INPUTS.flatMap(files)) {
  if (/\.test\.tsx?$/.test(file)) continue; // tests are not part of the bundle
  hash.update(file).update("\0").update(readFileSync(file)).update("\0");
}
const sources = hash.digest("hex");

if (process.argv.includes("--record")) {
  writeFileSync(STAMP, sources);
} else if (existsSync("dist/client/index.html") && existsSync(STAMP) && readFileSync(STAMP, "utf8") === sources) {
  console.log("The client is up to date (its sources have not changed since the last build).");
} else {
  execFileSync("npm", ["run", "build"], { stdio: "inherit" });
}
