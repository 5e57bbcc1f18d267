// The server the browser tests run against: the server as `npm start` runs it (built from the
// current sources, into a folder of this port's own, so two runs never share a build) on a fresh
// embedded database each run.
import { rmSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer } from "./build-server.mjs";

process.setSourceMapsEnabled(true);
rmSync(process.env.DATA_DIR, { recursive: true, force: true });
const main = await buildServer(`dist/e2e-server-${process.env.PORT}`);
await import(pathToFileURL(resolve(main)).href);
