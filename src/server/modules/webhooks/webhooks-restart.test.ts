import { asc } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products.js";
import type { CreatedWebhook } from "../../../contract/webhooks.js";
import { buildApp } from "../../app.js";
import { webhookDeliveries } from "../../db/schema.js";
import { testConfig } from "../../test/config.js";
import { signedIn } from "../../test/factories.js";
import { fileDatabase } from "../../test/file-database.js";
import { caller } from "../../test/product-calls.js";
import { eventually, Receiver } from "../../test/webhook-receiver.js";
import { verifyWebhook } from "./webhook-signature.js";

/**
 * Deliveries written before a restart are sent after it: the server stops while one attempt is
 * under way and a second delivery waits behind it; the next server on the same database sends
 * both, in order, with their own webhook-ids. (A process killed outright, on PostgreSQL with two
 * processes: webhooks.multiprocess.test.ts.)
 */

const file = fileDatabase();
let receiver: Receiver;
const config = testConfig({
  WEBHOOK_TIMEOUT_MS: 5_000,
  WEBHOOK_RETRY_DELAYS_MS: [100],
  WEBHOOK_POLL_MS: 100,
  WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"],
});

async function start(): Promise<FastifyInstance> {
  const app = await buildApp({ config, database: file.database, serveClient: false });
  await app.ready();
  return app;
}

beforeAll(async () => {
  receiver = await Receiver.start();
});
afterAll(async () => {
  await receiver?.close();
});

describe("webhook deliveries across a restart", () => {
  it("are sent by the next server when the first one stopped before sending them", async () => {
    const first = await start();
    const api = caller(first, (await signedIn(first, "manager")).cookie);
    const hook = (await api.post("/api/webhooks", { url: receiver.url, events: ["inventory.quantity_changed"] })).json() as CreatedWebhook;
    const product = (await api.create({ quantity_on_hand: 10 })) as Product;

    receiver.answer = () => "hang";
    expect((await api.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Before the restart" })).statusCode).toBe(
      200,
    );
    expect((await api.put(`/api/products/${product.id}/quantity`, { quantity_change: -2, reason: "Before the restart" })).statusCode).toBe(
      200,
    );
    // The first attempt is under way (the endpoint does not answer); the second waits behind it.
    const [inFlight] = await receiver.waitFor(() => true, 1);
    await first.close();

    const written = await file.database.db.select().from(webhookDeliveries).orderBy(asc(webhookDeliveries.id));
    expect(written.map((d) => d.status)).toEqual(["pending", "pending"]);
    expect(written.map((d) => d.attempts)).toEqual([0, 0]); // the cut-off attempt was given back

    receiver.answer = () => ({ status: 200 });
    const second = await start();
    try {
      const sent = await receiver.waitFor((r) => r.json.type === "inventory.quantity_changed", 3, 10_000);
      const afterRestart = sent.slice(1);
      expect(afterRestart.map((r) => r.json.data.quantity_change)).toEqual([-1, -2]);
      expect(afterRestart[0]?.headers["webhook-id"]).toBe(inFlight?.headers["webhook-id"]);
      expect(afterRestart.map((r) => r.headers["webhook-id"])).toEqual(written.map((d) => d.messageId));
      for (const r of afterRestart) expect(verifyWebhook(hook.secret, r.headers, r.body)).toBe(true);
      await eventually(async () => {
        const rows = await file.database.db.select().from(webhookDeliveries);
        return rows.every((d) => d.status === "succeeded") ? rows : undefined;
      });
    } finally {
      await second.close();
    }
  });
});
