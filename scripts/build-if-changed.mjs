// `npm start`: builds only what changed since the last build, so a restart takes seconds: the
// client (vite, half a minute) when its sources changed, the server (esbuild, a second) when its
// sources changed. `npm run build` always builds both and then records the sources' hashes
// (`--record`).
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SHARED = ["src/contract", "package-lock.json", "tsconfig.json"];
const PARTS = {
  client: { stamp: "dist/client/.sources-hash", output: "dist/client/index.html", inputs: ["src/client", "vite.config.ts", ...SHARED] },
  server: {
    stamp: "dist/server/.sources-hash",
    output: "dist/server/main.mjs",
    inputs: ["src/server", "scripts/build-server.mjs", ...SHARED],
  },
};

function files(path) {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => files(join(path, name)));
}

function sourcesHash(inputs) {
  const hash = createHash("sha256");
  for (const file of inputs.flatMap(files)) {
    if (/\.test(-support)?\.tsx?$/.test(file)) continue; // tests are not part of the build
    hash.update(file).update("\0").update(readFileSync(file)).update("\0");
  }
  return hash.digest("hex");
}

const upToDate = ({ stamp, output, inputs }) =>
  existsSync(output) && existsSync(stamp) && readFileSync(stamp, "utf8") === sourcesHash(inputs);

if (process.argv.includes("--record")) {
  for (const part of Object.values(PARTS)) writeFileSync(part.stamp, sourcesHash(part.inputs));
} else if (!upToDate(PARTS.client)) {
  execFileSync("npm", ["run", "build"], { stdio: "inherit" });
} else if (!upToDate(PARTS.server)) {
  execFileSync(process.execPath, ["scripts/build-server.mjs"], { stdio: "inherit" });
  writeFileSync(PARTS.server.stamp, sourcesHash(PARTS.server.inputs));
} else {
  console.log("The app is up to date (its sources have not changed since the last build).");
}
