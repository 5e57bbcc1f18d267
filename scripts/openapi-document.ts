/**
 * Writes the API's OpenAPI document (the one /api/docs serves) to the file named by the first
 * argument, for `npm run lint:openapi` and client generators. The app is built on a fresh
 * in-memory embedded database: the document comes from the routes, not from any data.
 */
import { writeFileSync } from "node:fs";
import { buildApp } from "../src/server/app.js";
import { loadConfig } from "../src/server/config.js";
import { openPglite } from "../src/server/db/client.js";

const out = process.argv[2];
if (!out) {
  console.error("usage: tsx scripts/openapi-document.ts <file.json>");
  process.exit(2);
}
const database = await openPglite();
const app = await buildApp({ config: loadConfig({ LOG_LEVEL: "silent" }), database, serveClient: false });
try {
  await app.ready();
  writeFileSync(out, `${JSON.stringify(app.swagger(), null, 2)}\n`);
} finally {
  await app.close();
  await database.close();
}
