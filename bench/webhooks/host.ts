/**
 * The webhooks bench's server process: the app on a fresh database (embedded, or DATABASE_URL),
 * an admin signed in and PRODUCTS products with plenty of stock. Tells the bench over IPC:
 * {app, cookie, products}. The bench adds and deletes the webhook itself, through the API.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../../src/server/app.js";
import { openDatabase } from "../../src/server/db/client.js";
import { ensureFirstAdmin } from "../../src/server/modules/users/bootstrap.js";
import { testConfig } from "../../src/server/test/config.js";

const ADMIN = { username: "bench-admin", password: "bench-admin-password" };
const PRODUCTS = 50;

async function main() {
  const dataDir = process.env.DATABASE_URL ? undefined : mkdtempSync(join(tmpdir(), "blez-webhooks-"));
  const config = testConfig({
    DATABASE_URL: process.env.DATABASE_URL,
    DATA_DIR: dataDir ?? "./unused",
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    // The slow endpoint runs on this computer, beside the bench.
    WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"],
  });
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.DATA_DIR });
  const app = await buildApp({ config, database, serveClient: false });
  await ensureFirstAdmin(database.db, config, app.log);
  const url = await app.listen({ port: 0, host: "127.0.0.1" });
  const login = await fetch(`${url}/api/auth/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
  const products: number[] = [];
  for (let i = 0; i < PRODUCTS; i++) {
    const res = await fetch(`${url}/api/products`, {
      method: "POST",
      headers: { cookie, "content-type": "application/json" },
      body: JSON.stringify({ barcode: `WHB-${i}`, product_name: `Bench Card ${i}`, vendor: "Topps", quantity_on_hand: 500_000_000 }),
    });
    products.push(((await res.json()) as { id: number }).id);
  }
  const stop = async () => {
    await app.close();
    await database.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  };
  process.on("message", (m) => m === "stop" && void stop());
  process.on("disconnect", () => void stop());
  process.send?.({ app: `${url}/api`, cookie, products, kind: database.kind });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
