import { eq, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { StockTake, StockTakeReview } from "../../../contract/stock-takes.js";
import { buildApp } from "../../app.js";
import type { ServiceContext } from "../../context.js";
import { type Database, openPostgres } from "../../db/client.js";
import { quantityAudit, stockTakes } from "../../db/schema.js";
import { rowsOf } from "../../db/sql.js";
import { testConfig } from "../../test/config.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { countedLocation as counted } from "../../test/stock-takes.js";
import { createTestDatabase } from "../../test/test-app.js";
import { beginApproval, runApproval } from "./stock-takes.service.js";

/**
 * The approval's lease (issue 41): two server processes on one database, each its own app and
 * (on PostgreSQL) its own connections; no state is shared but the database's. On the embedded
 * database, which one process serves, the two apps share its connection.
 */

type Api = ReturnType<typeof caller>;
let opened: Awaited<ReturnType<typeof createTestDatabase>>;
let second: Database | undefined;
let one: FastifyInstance;
let two: FastifyInstance;
let inventory: Api;
let managerOne: Api;
let managerTwo: Api;
let managerCtx: ServiceContext;

beforeAll(async () => {
  opened = await createTestDatabase();
  second = opened.url ? await openPostgres(opened.url) : undefined;
  one = await buildApp({ config: testConfig(), database: opened.database, serveClient: false });
  two = await buildApp({ config: testConfig(), database: second ?? opened.database, serveClient: false });
  await Promise.all([one.ready(), two.ready()]);
  inventory = caller(one, (await signedIn(one, "inventory")).cookie);
  const manager = await signedIn(one, "manager");
  managerOne = caller(one, manager.cookie);
  managerTwo = caller(two, manager.cookie);
  managerCtx = {
    db: one.db,
    events: one.events,
    config: one.config,
    actor: { id: manager.user.id, username: manager.user.username, role: "manager" },
    ip: "127.0.0.1",
  };
});
afterAll(async () => {
  await one?.close();
  await two?.close();
  await second?.close();
  await opened?.database.close();
  await opened?.drop();
});

const SLOW = { timeout: 180_000 };

/** `n` products of stock 2 in a new location, each counted 3 (one extra each), in a session in review. */
async function countedLocation(n: number): Promise<{ session: StockTake; ids: number[] }> {
  const { session, ids } = await counted(one.db, inventory, n);
  expect((await inventory.post(`/api/stock-takes/${session.id}/finish`, {})).statusCode).toBe(200);
  return { session, ids };
}

/** Each product's approved changes (tagged with the session) and its stock. */
async function outcome(sessionId: number, ids: number[]) {
  const tagged = await one.db
    .select({ productId: quantityAudit.productId, change: quantityAudit.quantityChange })
    .from(quantityAudit)
    .where(eq(quantityAudit.stockTakeId, sessionId));
  const stock = await one.db.execute(sql`
    select quantity_on_hand from products where id in (select json_array_elements_text(${JSON.stringify(ids)}::json)::int)`);
  return {
    changes: ids.map((id) => tagged.filter((a) => a.productId === id).map((a) => a.change)),
    stock: rowsOf<{ quantity_on_hand: number }>(stock).map((r) => r.quantity_on_hand),
  };
}

const lease = async (id: number) =>
  (
    await one.db
      .select({ until: stockTakes.approvalLeaseUntil, holder: stockTakes.approvalLeaseHolder })
      .from(stockTakes)
      .where(eq(stockTakes.id, id))
  )[0];

describe("an approval's lease on its session", () => {
  it("two approvals at once, one on each server: exactly one 200, one 409, the stock changed once", SLOW, async () => {
    const { session, ids } = await countedLocation(800);
    const [x, y] = await Promise.all([
      managerOne.post(`/api/stock-takes/${session.id}/approve`, {}),
      managerTwo.post(`/api/stock-takes/${session.id}/approve`, {}),
    ]);
    expect([x.statusCode, y.statusCode].sort(), `${x.body} ${y.body}`).toEqual([200, 409]);
    const refused = x.statusCode === 409 ? x : y;
    expect(["This stock take is being approved", "This stock take is already approved or cancelled"]).toContain(
      refused.json<{ error: string }>().error,
    );
    const { changes, stock } = await outcome(session.id, ids);
    expect(changes.every((c) => c.length === 1 && c[0] === 1)).toBe(true);
    expect(stock.every((q) => q === 3)).toBe(true);
    expect(await lease(session.id)).toEqual({ until: null, holder: null });
  });

  it("a second approval while one runs on the other server gets 409 from the lease alone, then the first ends it", SLOW, async () => {
    const { session, ids } = await countedLocation(1_200);
    const first = managerOne.post(`/api/stock-takes/${session.id}/approve`, {});
    // Once the first holds the lease (its batches running), the other server is asked.
    for (let i = 0; i < 500 && (await lease(session.id))?.holder == null; i += 1) await new Promise((r) => setTimeout(r, 5));
    const during = await managerTwo.post(`/api/stock-takes/${session.id}/approve`, {});
    const done = await first;
    expect(done.statusCode, done.body).toBe(200);
    expect(during.statusCode, during.body).toBe(409);
    expect(during.json()).toEqual({ error: "This stock take is being approved" });
    expect(done.json<StockTakeReview>().stock_take.status).toBe("approved");
    expect((await outcome(session.id, ids)).changes.every((c) => c.length === 1)).toBe(true);
  });

  it(
    "an approver gone after it began (a crash, a restart) holds it until its lease expires; then the other server resumes it",
    SLOW,
    async () => {
      const { session, ids } = await countedLocation(300);
      // Server one begins with a lease of 400 ms and runs no batch: as if it crashed then.
      const holder = await beginApproval(managerCtx, opened.database, session.id, {}, { leaseMs: 400 });
      expect((await lease(session.id))?.holder).toBe(holder);
      const early = await managerTwo.post(`/api/stock-takes/${session.id}/approve`, {});
      expect(early.statusCode, early.body).toBe(409);
      expect(early.json()).toEqual({ error: "This stock take is being approved" });
      expect((await outcome(session.id, ids)).changes.every((c) => c.length === 0)).toBe(true);

      // Expired: server two takes the lease over and applies the pending lines.
      const until = (await lease(session.id))?.until as Date;
      await new Promise((r) => setTimeout(r, Math.max(0, until.getTime() - Date.now()) + 100));
      const resumed = await managerTwo.post(`/api/stock-takes/${session.id}/approve`, {});
      expect(resumed.statusCode, resumed.body).toBe(200);
      expect(resumed.json<StockTakeReview>().stock_take).toMatchObject({ status: "approved", approved_by: managerCtx.actor.username });
      // The first approver back: its lease is gone; nothing applied twice.
      await runApproval(managerCtx, opened.database, session.id, holder, { leaseMs: 400 });
      const { changes, stock } = await outcome(session.id, ids);
      expect(changes.every((c) => c.length === 1 && c[0] === 1)).toBe(true);
      expect(stock.every((q) => q === 3)).toBe(true);
    },
  );

  it("an approver whose lease was taken over mid-way stops with 409 before its next batch; each line is applied once", SLOW, async () => {
    const { session, ids } = await countedLocation(400);
    const gone = await beginApproval(managerCtx, opened.database, session.id, {}, { leaseMs: 1 });
    await new Promise((r) => setTimeout(r, 20));
    // Taken over by server two's approval (default lease), which runs to the end.
    const resumed = await managerTwo.post(`/api/stock-takes/${session.id}/approve`, {});
    expect(resumed.statusCode, resumed.body).toBe(200);
    // A stale holder renewing finds the lease not its own.
    await one.db.update(stockTakes).set({ status: "approving" }).where(eq(stockTakes.id, session.id));
    await one.db.execute(
      sql`update stock_take_lines set approval = 'pending' where stock_take_id = ${session.id} and product_id = ${ids[0] as number}`,
    );
    await expect(runApproval(managerCtx, opened.database, session.id, gone)).rejects.toMatchObject({ statusCode: 409 });
    await one.db.update(stockTakes).set({ status: "approved" }).where(eq(stockTakes.id, session.id));
    const { changes } = await outcome(session.id, ids);
    expect(changes.every((c) => c.length === 1)).toBe(true);
  });
});
