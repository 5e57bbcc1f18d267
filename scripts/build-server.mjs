// Builds the server for `npm start`: the TypeScript sources bundled by esbuild into
// <outdir>/main.mjs, the embedded database's host (db-host.mjs) and the thread that reads large
// import bodies (import-body-worker.mjs) beside it, so a start loads a few files instead of compiling a hundred modules through tsx (packages stay in node_modules).
import { rmSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";

export async function buildServer(outdir = "dist/server") {
  rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: {
      main: "src/server/main.ts",
      "db-host": "src/server/db/embedded/host.ts",
      "import-body-worker": "src/server/modules/import/import-body.worker.ts",
      "price-feed-worker": "src/server/modules/prices/feed-reader.worker.ts",
    },
    outdir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: "linked",
    logLevel: "warning",
  });
  return `${outdir}/main.mjs`;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  console.log(`Server built: ${await buildServer()}`);
}
