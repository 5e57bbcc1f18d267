import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Product } from "../../../contract/products.js";
import type { CreatedWebhook, Webhook, WebhookDelivery } from "../../../contract/webhooks.js";
import { webhookDeliveries } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { withTransaction } from "../../db/tx.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { eventually, Receiver } from "../../test/webhook-receiver.js";
import { signWebhook, verifyWebhook, webhookHeaders } from "./webhook-signature.js";

/**
 * The Standard Webhooks test vector: standard-webhooks/standard-webhooks,
 * libraries/javascript/src/webhook.test.ts, test "sign function works" (the same values are in the
 * other languages' tests of that repository).
 */
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  msgId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("the Standard Webhooks signature", () => {
  it("matches the spec's published test vector", () => {
    expect(signWebhook(VECTOR.secret, VECTOR.msgId, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.signature);
    // The key is the secret's decoded bytes, with or without the prefix.
    expect(signWebhook(VECTOR.secret.slice(6), VECTOR.msgId, VECTOR.timestamp, VECTOR.payload)).toBe(VECTOR.signature);
  });

  it("verifies the vector, several signatures in one header, and refuses changes and stale timestamps", () => {
    const now = VECTOR.timestamp * 1000;
    const headers = { "webhook-id": VECTOR.msgId, "webhook-timestamp": String(VECTOR.timestamp), "webhook-signature": VECTOR.signature };
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.payload, { now })).toBe(true);
    // The vector repository's "multi sig payload is valid": other signatures beside the right one.
    const multi = `v1,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= v2,Ceo5qEr07ixe2NLpvHk3FH9bwy/WavXrAFQ/9tdO6mc= ${VECTOR.signature}`;
    expect(verifyWebhook(VECTOR.secret, { ...headers, "webhook-signature": multi }, VECTOR.payload, { now })).toBe(true);
    expect(verifyWebhook(VECTOR.secret, headers, '{"test": 2432232315}', { now })).toBe(false);
    expect(verifyWebhook(VECTOR.secret, { ...headers, "webhook-signature": "v1,dawfeoifkpqwoekfpqoekf" }, VECTOR.payload, { now })).toBe(
      false,
    );
    expect(verifyWebhook(VECTOR.secret, headers, VECTOR.payload, { now: now + 301_000 })).toBe(false);
    const fresh = webhookHeaders(VECTOR.secret, "msg_1", "{}");
    expect(verifyWebhook(VECTOR.secret, fresh, "{}")).toBe(true);
  });
});

let t: TestApp;
let receiver: Receiver;
let manager: ReturnType<typeof caller>;
let managerCookie: string;

beforeAll(async () => {
  receiver = await Receiver.start();
  // Short waits between attempts and a short timeout, so retries happen within a test; the
  // receiver on this computer and a shop's network allowed.
  t = await createTestApp({
    WEBHOOK_TIMEOUT_MS: 500,
    WEBHOOK_RETRY_DELAYS_MS: [100, 200],
    WEBHOOK_POLL_MS: 200,
    WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1", "192.168.1.0/24"],
  });
  managerCookie = (await signedIn(t.app, "manager")).cookie;
  manager = caller(t.app, managerCookie);
});
afterAll(async () => {
  await t?.close();
  await receiver?.close();
});

async function addWebhook(body: Record<string, unknown>): Promise<CreatedWebhook> {
  const res = await manager.post("/api/webhooks", body);
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function deliveriesOf(webhookId: number): Promise<WebhookDelivery[]> {
  const res = await manager.get(`/api/webhooks/${webhookId}/deliveries`);
  expect(res.statusCode).toBe(200);
  return res.json();
}

const deliveryRows = () => t.app.db.select().from(webhookDeliveries).orderBy(asc(webhookDeliveries.id));

describe("webhook endpoints", () => {
  it("are added by managers with a whsec_ secret shown once, listed without it, changed and deleted", async () => {
    const created = await addWebhook({ url: "http://192.168.1.20:8080/sync", events: ["product.created"], description: "web store" });
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(created.secret.slice(6), "base64").length).toBe(32);
    expect(created.webhook).toMatchObject({
      url: "http://192.168.1.20:8080/sync",
      events: ["product.created"],
      description: "web store",
      enabled: true,
    });

    const list = await manager.get("/api/webhooks");
    expect(list.body).not.toContain(created.secret);
    expect((list.json() as Webhook[]).map((w) => w.id)).toContain(created.webhook.id);

    const changed = await manager.put(`/api/webhooks/${created.webhook.id}`, { enabled: false, events: ["*", "product.updated"] });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ enabled: false, events: ["*"] });

    const gone = await t.app.inject({ method: "DELETE", url: `/api/webhooks/${created.webhook.id}`, headers: { cookie: managerCookie } });
    expect(gone.statusCode).toBe(204);
    expect((await manager.put(`/api/webhooks/${created.webhook.id}`, { enabled: true })).statusCode).toBe(404);
  });

  it.runIf(process.env.DATABASE_URL)(
    "on PostgreSQL: are deleted while an attempt's outcome is being recorded, without a deadlock",
    async () => {
      const created = await addWebhook({ url: "http://192.168.1.20:8080/sync", events: ["product.created"] });
      const id = created.webhook.id;
      // Disabled, so the worker leaves its delivery alone: only this test's connection touches it.
      expect((await manager.put(`/api/webhooks/${id}`, { enabled: false })).statusCode).toBe(200);
      const [delivery] = await t.app.db
        .insert(webhookDeliveries)
        .values({ webhookId: id, messageId: `msg_lock_order_${id}`, type: "product.created", data: {} })
        .returning();
      const other = await t.database.pool?.connect();
      if (!other || !delivery) throw new Error("no pool on PostgreSQL, or no delivery");
      try {
        // record_webhook_attempt()'s order: the delivery's row first, then its webhook's.
        await other.query("begin");
        await other.query("update webhook_deliveries set last_error = 'recording' where id = $1", [delivery.id]);
        const deleting = t.app.inject({ method: "DELETE", url: `/api/webhooks/${id}`, headers: { cookie: managerCookie } });
        await eventually(
          async () => {
            const waiting = await other.query(
              "select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database() and pid <> pg_backend_pid()",
            );
            return waiting.rowCount ? true : undefined;
          },
          5_000,
          "the deletion to wait for the delivery's lock",
        );
        await other.query("update webhooks set failing_since = now() where id = $1", [id]);
        await other.query("commit");
        expect((await deleting).statusCode).toBe(204);
      } finally {
        other.release();
      }
      expect((await deliveryRows()).filter((d) => d.webhookId === id)).toEqual([]);
    },
  );

  it("accept http(s) URLs on the internet and those WEBHOOK_ALLOWED_HOSTS allows, and refuse other schemes and addresses", async () => {
    // (Every refused form, and names resolving to them: webhook-targets.test.ts.)
    for (const url of [
      "http://localhost:4000/hook",
      "https://127.0.0.1/x",
      "http://192.168.1.20/hook",
      "https://shop.example.com/webhooks",
    ]) {
      const res = await manager.post("/api/webhooks", { url, events: ["*"] });
      expect(res.statusCode, url).toBe(201);
      await t.app.inject({ method: "DELETE", url: `/api/webhooks/${res.json().webhook.id}`, headers: { cookie: managerCookie } });
    }
    const refused: Array<[string, string]> = [
      ["ftp://example.com/x", "must start with http:// or https://"],
      ["file:///etc/passwd", "must start with http:// or https://"],
      ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
      ["http://[fe80::1]/hook", "link-local"],
      ["http://[febf::1]:8080/", "link-local"],
      ["http://[::ffff:169.254.1.1]/", "link-local"],
      ["http://10.0.0.5/hook", "private network"],
      ["http://127.0.0.2/hook", "this computer"],
      ["not a url", "not a valid URL"],
    ];
    for (const [url, message] of refused) {
      const res = await manager.post("/api/webhooks", { url, events: ["*"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error).toContain(message);
    }
    expect((await manager.post("/api/webhooks", { url: "http://localhost/x", events: [] })).statusCode).toBe(400);
    expect((await manager.post("/api/webhooks", { url: "http://localhost/x", events: ["product.sold"] })).statusCode).toBe(400);
  });

  it("are refused to inventory users and streamers (403) and to no session (401)", async () => {
    for (const role of ["inventory", "streamer"] as const) {
      const api = caller(t.app, (await signedIn(t.app, role)).cookie);
      expect((await api.get("/api/webhooks")).statusCode).toBe(403);
      expect((await api.post("/api/webhooks", { url: "http://localhost/x", events: ["*"] })).statusCode).toBe(403);
    }
    const admin = caller(t.app, (await signedIn(t.app, "super_admin")).cookie);
    expect((await admin.get("/api/webhooks")).statusCode).toBe(200);
    expect((await t.app.inject({ method: "GET", url: "/api/webhooks" })).statusCode).toBe(401);
  });
});

describe("deliveries", () => {
  let hook: CreatedWebhook;
  beforeAll(async () => {
    hook = await addWebhook({ url: receiver.url, events: ["*"], description: "everything" });
  });
  afterAll(async () => {
    await t.app.inject({ method: "DELETE", url: `/api/webhooks/${hook.webhook.id}`, headers: { cookie: managerCookie } });
  });

  it("report a tap at once, signed, with the whole committed product, the change and the reason", async () => {
    const product = await manager.create({ quantity_on_hand: 5 });
    const before = receiver.received.length;
    const tapped = await manager.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Streamer adjustment" });
    const answeredAt = Date.now();
    expect(tapped.statusCode).toBe(200);
    const [got] = await receiver.waitFor(
      (r) => r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id,
    );
    if (!got) throw new Error("no delivery");
    expect(receiver.received.length).toBeGreaterThan(before);
    expect(got.at - answeredAt).toBeLessThan(1_000);
    expect(got.json.data).toEqual({ product: tapped.json(), quantity_change: -1, reason: "Streamer adjustment" });
    expect(got.json.timestamp).toMatch(/Z$/);
    expect(got.headers["webhook-id"]).toMatch(/^msg_[0-9a-f]{12}_\d+$/);
    expect(got.headers["content-type"]).toBe("application/json");
    expect(verifyWebhook(hook.secret, got.headers, got.body)).toBe(true);
    expect(verifyWebhook(`whsec_${Buffer.alloc(32).toString("base64")}`, got.headers, got.body)).toBe(false);
  });

  it("to a webhook for low stock alone: only the change that reaches the reorder point, with the product then", async () => {
    const lowOnly = await addWebhook({ url: receiver.url, events: ["product.low_stock"], description: "reorders" });
    try {
      const product = await manager.create({ quantity_on_hand: 5, reorder_point: 3 });
      // 5 -> 4, 4 -> 3 (reaches the point), 3 -> 2, 2 -> 4, 4 -> 3 (reaches it again)
      for (const change of [-1, -1, -1, 2, -1]) {
        const res = await manager.put(`/api/products/${product.id}/quantity`, { quantity_change: change, reason: "Streamer adjustment" });
        expect(res.statusCode).toBe(200);
      }
      const rows = (await deliveryRows()).filter((d) => d.webhookId === lowOnly.webhook.id);
      expect(rows.map((d) => [d.type, (d.data as { product: Product }).product.quantity_on_hand])).toEqual([
        ["product.low_stock", 3],
        ["product.low_stock", 3],
      ]);
    } finally {
      await manager.delete(`/api/webhooks/${lowOnly.webhook.id}`);
    }
  });

  it("report an order placed and cancelled with the order, its lines' stock changes with its id, and a product reaching its reorder point", async () => {
    const product = await manager.create({ quantity_on_hand: 5, reorder_point: 3 });
    const placed = await manager.post("/api/orders", {
      channel: "web",
      external_id: `wh-${product.id}`,
      lines: [{ product_id: product.id, quantity: 2, unit_price: 450 }],
    });
    expect(placed.statusCode, placed.body).toBe(201);
    const { order } = placed.json<{ order: { id: number; status: string } }>();
    const [created] = await receiver.waitFor(
      (r) => r.json.type === "order.created" && (r.json.data.order as { id: number }).id === order.id,
    );
    expect(created?.json.data).toEqual({ order });
    const [changed] = await receiver.waitFor(
      (r) => r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id,
    );
    expect(changed?.json.data).toMatchObject({ quantity_change: -2, order_id: order.id, reason: `Order web wh-${product.id}` });
    const [low] = await receiver.waitFor((r) => r.json.type === "product.low_stock" && (r.json.data.product as Product).id === product.id);
    expect((low?.json.data.product as Product | undefined)?.quantity_on_hand).toBe(3);

    const cancel = await manager.post(`/api/orders/${order.id}/cancel`, {});
    expect(cancel.statusCode, cancel.body).toBe(200);
    const [cancelled] = await receiver.waitFor(
      (r) => r.json.type === "order.cancelled" && (r.json.data.order as { id: number }).id === order.id,
    );
    expect((cancelled?.json.data.order as { status: string } | undefined)?.status).toBe("cancelled");
  });

  it("report creates, edits with their changed fields, status changes, imports and tests", async () => {
    const barcode = newBarcode("WH");
    const product = await manager.create({ barcode, quantity_on_hand: 3 });
    const created = await receiver.waitFor(
      (r) => r.json.type === "product.created" && (r.json.data.product as Product).barcode === barcode,
    );
    expect(created[0]?.json.data).toEqual({ product });

    const edited = await manager.put(`/api/products/${product.id}`, { product_name: "Renamed Card", quantity_on_hand: 7 });
    expect(edited.statusCode).toBe(200);
    const updated = await receiver.waitFor((r) => r.json.type === "product.updated" && (r.json.data.product as Product).id === product.id);
    expect(updated[0]?.json.data).toEqual({ product: edited.json(), changed_fields: ["product_name", "quantity_on_hand"] });
    const stock = await receiver.waitFor(
      (r) => r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id,
    );
    expect(stock[0]?.json.data).toMatchObject({ quantity_change: 4, reason: "Product edited" });

    const disabled = await manager.put(`/api/products/${product.id}/status`, { is_active: false });
    const status = await receiver.waitFor(
      (r) => r.json.type === "product.status_changed" && (r.json.data.product as Product).id === product.id,
    );
    expect(status[0]?.json.data).toEqual({ product: disabled.json() });

    const imported = await manager.post("/api/products/import", {
      products: [
        { barcode: newBarcode("IM"), product_name: "Imported A", vendor: "Panini", quantity_on_hand: 2 },
        { barcode: newBarcode("IM"), product_name: "Imported B", vendor: "Panini", quantity_on_hand: 0 },
      ],
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const importId = imported.json().import_id;
    const done = await receiver.waitFor((r) => r.json.type === "products.imported" && r.json.data.import_id === importId);
    expect(done[0]?.json.data).toEqual({ import_id: importId, created: 2, updated: 0 });
    // One event for the import, none per imported product.
    expect(
      receiver.ofType("product.created").filter((r) => String((r.json.data.product as Product).product_name).startsWith("Imported")),
    ).toEqual([]);

    const test = await manager.post(`/api/webhooks/${hook.webhook.id}/test`);
    expect(test.statusCode).toBe(202);
    const tested = await receiver.waitFor((r) => r.json.type === "webhook.test" && r.headers["webhook-id"] === test.json().message_id);
    expect(tested[0]?.json.data).toMatchObject({ webhook_id: hook.webhook.id });
    const log = await eventually(async () => {
      const list = await deliveriesOf(hook.webhook.id);
      const entry = list.find((d) => d.id === test.json().id);
      return entry?.status === "succeeded" ? list : undefined;
    });
    expect(log[0]).toMatchObject({
      type: "webhook.test",
      status: "succeeded",
      attempts: 1,
      last_status: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(log.map((d) => d.id)).toEqual([...log.map((d) => d.id)].sort((a, b) => b - a));
  });

  it("send one product's changes in commit order, even when an endpoint is slow", async () => {
    const product = await manager.create({ quantity_on_hand: 100 });
    receiver.answer = (r, i) => ({ status: 200, delayMs: r.json.type === "inventory.quantity_changed" ? (i % 3) * 40 : 0 });
    try {
      const taps = await Promise.all(
        Array.from({ length: 12 }, () =>
          manager.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Streamer adjustment" }),
        ),
      );
      expect(taps.every((r) => r.statusCode === 200)).toBe(true);
      const got = await receiver.waitFor(
        (r) => r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id,
        12,
      );
      expect(got.map((r) => (r.json.data.product as Product).quantity_on_hand)).toEqual(Array.from({ length: 12 }, (_, i) => 99 - i));
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it("are retried with the same webhook-id after a 500 and after a timeout, then succeed", async () => {
    const product = await manager.create({ quantity_on_hand: 9 });
    const mine = (r: { json: { type: string; data: Record<string, unknown> } }) =>
      r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id;
    let seen = 0;
    receiver.answer = (r) => {
      if (!mine(r)) return { status: 200 };
      seen += 1;
      if (seen === 1) return { status: 500 };
      if (seen === 2) return "hang";
      return { status: 200 };
    };
    try {
      await manager.put(`/api/products/${product.id}/quantity`, { quantity_change: -2, reason: "Order 17" });
      const attempts = await receiver.waitFor(mine, 3, 10_000);
      const ids = new Set(attempts.map((r) => r.headers["webhook-id"]));
      expect(ids.size).toBe(1);
      expect(attempts.map((r) => r.body)).toEqual([attempts[0]?.body, attempts[0]?.body, attempts[0]?.body]);
      for (const a of attempts) expect(verifyWebhook(hook.secret, a.headers, a.body)).toBe(true);
      const [id] = ids;
      const delivery = await eventually(async () => {
        const [row] = await t.app.db
          .select()
          .from(webhookDeliveries)
          .where(eq(webhookDeliveries.messageId, String(id)));
        return row?.status === "succeeded" ? row : undefined;
      });
      expect(delivery).toMatchObject({ attempts: 3, lastStatus: 200, lastError: null });
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it("record the last answer and the next try while failing, and a Retry sends at once with the same webhook-id", async () => {
    const product = await manager.create({ quantity_on_hand: 4 });
    const mine = (r: { json: { type: string; data: Record<string, unknown> } }) =>
      r.json.type === "inventory.quantity_changed" && (r.json.data.product as Product).id === product.id;
    receiver.answer = (r) => (mine(r) ? { status: 503 } : { status: 200 });
    try {
      await manager.put(`/api/products/${product.id}/quantity`, { quantity_change: 1, reason: "Restock" });
      await receiver.waitFor(mine, 2);
      const failing = await eventually(async () => {
        const list = await deliveriesOf(hook.webhook.id);
        const d = list.find((x) => x.type === "inventory.quantity_changed" && x.attempts >= 2 && x.status === "pending");
        return d && d.next_attempt_at !== null ? d : undefined;
      });
      expect(failing.last_status).toBe(503);
      expect(failing.last_error).toBe("HTTP 503");
      const listed = await manager.get("/api/webhooks");
      expect((listed.json() as Webhook[]).find((w) => w.id === hook.webhook.id)?.failing_since).not.toBeNull();

      receiver.answer = () => ({ status: 200 });
      const retried = await manager.post(`/api/webhooks/${hook.webhook.id}/deliveries/${failing.id}/retry`);
      expect(retried.statusCode).toBe(202);
      const done = await eventually(async () => {
        const d = (await deliveriesOf(hook.webhook.id)).find((x) => x.id === failing.id);
        return d?.status === "succeeded" ? d : undefined;
      });
      expect(done.message_id).toBe(failing.message_id);
      expect(receiver.received.filter(mine).every((r) => r.headers["webhook-id"] === failing.message_id)).toBe(true);
      const after = (await manager.get("/api/webhooks")).json() as Webhook[];
      expect(after.find((w) => w.id === hook.webhook.id)?.failing_since).toBeNull();
      expect((await manager.post(`/api/webhooks/${hook.webhook.id}/deliveries/999999999/retry`)).statusCode).toBe(404);
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it("are not written for a refused change, nor for a rolled-back one", async () => {
    const product = await manager.create({ quantity_on_hand: 1 });
    const other = await manager.create({ quantity_on_hand: 1 });
    await manager.put(`/api/products/${other.id}/status`, { is_active: false });
    await manager.put(`/api/products/${product.id}`, { product_name: "Renamed" });
    await receiver.waitFor((r) => r.json.type === "product.status_changed" && (r.json.data.product as Product).id === other.id);
    await receiver.waitFor((r) => r.json.type === "product.updated" && (r.json.data.product as Product).id === product.id);
    const afterSetup = (await deliveryRows()).length;

    expect((await manager.put(`/api/products/${product.id}/quantity`, { quantity_change: -5, reason: "Oversell" })).statusCode).toBe(409);
    expect((await manager.put(`/api/products/${other.id}/quantity`, { quantity_change: 1, reason: "Disabled" })).statusCode).toBe(409);
    // The name changed since version 1: a version conflict, nothing changes.
    expect((await manager.put(`/api/products/${product.id}`, { product_name: "Stale", version: 1 })).statusCode).toBe(409);
    expect((await manager.put(`/api/products/${product.id}`, { barcode: other.barcode })).statusCode).toBe(409);
    expect((await manager.put(`/api/products/999999/quantity`, { quantity_change: 1, reason: "Nobody" })).statusCode).toBe(404);
    expect((await deliveryRows()).length).toBe(afterSetup);

    // The real tap statement, and a real product create, in a transaction that rolls back.
    await expect(
      withTransaction(t.app.db, async (tx) => {
        await tx.execute(
          sql`select * from apply_quantity_change(${product.id}::int, 1, null, 1000000000, 'Rolled back', null, 'nobody', null, null, null, null, null, null)`,
        );
        await tx.execute(sql`insert into product_audit (product_id, product_name, barcode, action, user_name, changed_fields)
          values (${product.id}::int, 'x', 'x', 'UPDATE', 'nobody', '["product_name"]')`);
        const [count] = rowsOf<{ n: number }>(await tx.execute(sql`select count(*)::int as n from webhook_deliveries`));
        expect(count?.n).toBe(afterSetup + 2); // written inside the transaction...
        throw new Error("roll back");
      }),
    ).rejects.toThrow("roll back");
    expect((await deliveryRows()).length).toBe(afterSetup); // ...and gone with it
  });
});

describe("an endpoint failing for the whole retry window", () => {
  let app: TestApp;
  let dead: Receiver;
  beforeAll(async () => {
    dead = await Receiver.start();
    dead.answer = () => ({ status: 500 });
    app = await createTestApp({
      WEBHOOK_RETRY_DELAYS_MS: [100],
      WEBHOOK_GIVE_UP_MS: 1_500,
      WEBHOOK_POLL_MS: 100,
      WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"],
    });
  });
  afterAll(async () => {
    await app?.close();
    await dead?.close();
  });

  it("fails the delivery and disables the endpoint, saying why; enabling it again clears that", async () => {
    const api = caller(app.app, (await signedIn(app.app, "manager")).cookie);
    const hook = (await api.post("/api/webhooks", { url: dead.url, events: ["webhook.test"] })).json() as CreatedWebhook;
    const test = await api.post(`/api/webhooks/${hook.webhook.id}/test`);
    const failed = await eventually(async () => {
      const list = (await api.get(`/api/webhooks/${hook.webhook.id}/deliveries`)).json() as WebhookDelivery[];
      const d = list.find((x) => x.id === test.json().id);
      return d?.status === "failed" ? d : undefined;
    });
    expect(failed.attempts).toBeGreaterThan(2);
    expect(failed.next_attempt_at).toBeNull();
    expect(new Set(dead.received.map((r) => r.headers["webhook-id"]))).toEqual(new Set([failed.message_id]));
    // Any delivery failing after the endpoint failed for the window disables it.
    await api.post(`/api/webhooks/${hook.webhook.id}/test`);
    const disabled = await eventually(async () => {
      const w = ((await api.get("/api/webhooks")).json() as Webhook[]).find((x) => x.id === hook.webhook.id);
      return w && !w.enabled ? w : undefined;
    });
    expect(disabled.disabled_reason).toBe("Disabled after failing for 24 hours");
    const enabled = await api.put(`/api/webhooks/${hook.webhook.id}`, { enabled: true });
    expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
  });
});
