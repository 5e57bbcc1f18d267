import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { QuantityAuditEntry } from "../../../contract/audit.js";
import type { ShowUpdate } from "../../../contract/events.js";
import type { Role } from "../../../contract/permissions.js";
import type { Product } from "../../../contract/products.js";
import type { CurrentShow, ShowListItem, ShowSummary } from "../../../contract/shows.js";
import { signedIn } from "../../test/factories.js";
import { caller, snapshot } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;

async function signIn(role: Role) {
  const { user, cookie } = await signedIn(t.app, role);
  return { user, api: caller(t.app, cookie) };
}

beforeAll(async () => {
  t = await createTestApp();
  manager = (await signIn("manager")).api;
});
afterAll(async () => {
  await t?.close();
});

const tap = (
  api: ReturnType<typeof caller>,
  product: Product,
  change: number,
  showId?: number,
  reason = "Streamer adjustment",
  key?: string,
) =>
  api.put(
    `/api/products/${product.id}/quantity`,
    { quantity_change: change, reason, ...(showId === undefined ? {} : { show_id: showId }) },
    key ? { "idempotency-key": key } : {},
  );

async function start(api: ReturnType<typeof caller>, name: string): Promise<ShowSummary> {
  const res = await api.post("/api/shows", { name });
  if (res.statusCode !== 201) throw new Error(`start show: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe("running a show", () => {
  it("a streamer starts one show at a time; every tap naming it is tallied per product, newest first", async () => {
    const { api: streamer } = await signIn("streamer");
    const [a, b] = [await manager.create({ quantity_on_hand: 10 }), await manager.create({ quantity_on_hand: 10 })] as [Product, Product];
    expect((await streamer.get("/api/shows/current")).json<CurrentShow>()).toEqual({ show: null });

    const { show } = await start(streamer, "  Sunday Pokemon break ");
    expect(show).toMatchObject({ name: "Sunday Pokemon break", ended_at: null });
    const again = await streamer.post("/api/shows", { name: "Another" });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe("You are already running a show: Sunday Pokemon break");
    expect((await streamer.post("/api/shows", { name: "  " })).statusCode).toBe(400);

    for (const [p, change] of [
      [a, -1],
      [a, -1],
      [b, -1],
      [b, 1],
      [a, 1],
    ] as const) {
      expect((await tap(streamer, p, change, show.id)).statusCode).toBe(200);
    }
    // A tap outside the show is not in its tally.
    expect((await tap(streamer, b, -1)).statusCode).toBe(200);

    const current = (await streamer.get("/api/shows/current")).json<CurrentShow>().show as ShowSummary;
    expect(current.lines.map((l) => [l.product_id, l.sold, l.added, l.net, l.undo_change])).toEqual([
      [a.id, 2, 1, -1, -1],
      [b.id, 1, 1, 0, -1],
    ]);
    expect(current.totals).toEqual({ sold: 3, added: 2, net: -1, changes: 5, revenue: null });
  });

  it("an undo from the tally is a new opposite change, audited and tagged; the line then counts neither", async () => {
    const { api: streamer } = await signIn("streamer");
    const p = await manager.create({ quantity_on_hand: 5 });
    const { show } = await start(streamer, "Undo show");
    await tap(streamer, p, -1, show.id);
    await tap(streamer, p, -1, show.id);
    let line = (await streamer.get(`/api/shows/${show.id}`)).json<ShowSummary>().lines[0];
    expect(line).toMatchObject({ sold: 2, undo_change: 1 });
    const undo = await tap(streamer, p, line?.undo_change ?? 0, show.id, "Undo");
    expect(undo.json<Product>().quantity_on_hand).toBe(4);
    line = (await streamer.get(`/api/shows/${show.id}`)).json<ShowSummary>().lines[0];
    expect(line).toMatchObject({ sold: 1, added: 0, net: -1, undo_change: 1 });

    const audit = (await manager.get(`/api/audit/quantity?show_id=${show.id}`)).json<QuantityAuditEntry[]>();
    expect(audit.map((e) => [e.quantity_change, e.notes, e.show_id, e.show_name])).toEqual([
      [1, "Undo", show.id, "Undo show"],
      [-1, "Streamer adjustment", show.id, "Undo show"],
      [-1, "Streamer adjustment", show.id, "Undo show"],
    ]);
    // Outside the show the trail says so too.
    const all = (await manager.get(`/api/audit/quantity/${p.id}`)).json<QuantityAuditEntry[]>();
    expect(all.every((e) => e.show_id === show.id || e.show_id === null)).toBe(true);
  });

  it("a tap may name only the user's own show: another's is 403, an unknown one 404, and nothing changes", async () => {
    const { api: owner } = await signIn("streamer");
    const { api: other } = await signIn("streamer");
    const p = await manager.create({ quantity_on_hand: 5 });
    const { show } = await start(owner, "Mine");
    const before = await snapshot(t.app.db);
    const theirs = await tap(other, p, -1, show.id, "Streamer adjustment");
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json().error).toBe("You can only tag your own show");
    expect((await tap(other, p, -1, 2_000_000_000)).statusCode).toBe(404);
    expect(await snapshot(t.app.db)).toEqual(before);
  });

  it("a tap's Idempotency-Key covers its show: a repeat answers the first answer, another show is 422", async () => {
    const { api: streamer } = await signIn("streamer");
    const p = await manager.create({ quantity_on_hand: 5 });
    const { show } = await start(streamer, "Keys");
    const first = await tap(streamer, p, -1, show.id, "Streamer adjustment", "tap-1");
    const repeat = await tap(streamer, p, -1, show.id, "Streamer adjustment", "tap-1");
    expect(repeat.json()).toEqual(first.json());
    expect((await tap(streamer, p, -1, undefined, "Streamer adjustment", "tap-1")).statusCode).toBe(422);
    expect((await streamer.get(`/api/shows/${show.id}`)).json<ShowSummary>().totals.sold).toBe(1);
  });
});

describe("ending a show", () => {
  it("answers the summary, tells every screen, and a tap queued during the show still lands in it", async () => {
    const { user, api: streamer } = await signIn("streamer");
    const p = await manager.create({ quantity_on_hand: 9, product_name: "Charizard ex 199/165 SIR" });
    const events: ShowUpdate[] = [];
    const listener = (e: ShowUpdate) => events.push(e);
    t.app.events.on("show_update", listener);
    try {
      const { show } = await start(streamer, "Friday");
      await tap(streamer, p, -1, show.id);
      const end = await streamer.post(`/api/shows/${show.id}/end`);
      expect(end.statusCode).toBe(200);
      const summary = end.json<ShowSummary>();
      expect(summary.show.ended_at).not.toBeNull();
      expect(summary.show.ended_by_name).toBe(user.username);
      expect(summary.totals).toMatchObject({ sold: 1, net: -1 });
      expect((await streamer.post(`/api/shows/${show.id}/end`)).statusCode).toBe(409);
      expect(events.map((e) => [e.type, e.show.id, e.userId])).toEqual([
        ["show_started", show.id, user.id],
        ["show_ended", show.id, user.id],
      ]);
      // Sent after the end (it waited offline): still tagged with the show it was made in.
      expect((await tap(streamer, p, -1, show.id)).statusCode).toBe(200);
      expect((await streamer.get(`/api/shows/${show.id}`)).json<ShowSummary>().totals.sold).toBe(2);
      // The user can start the next show.
      expect((await streamer.post("/api/shows", { name: "Saturday" })).statusCode).toBe(201);
    } finally {
      t.app.events.off("show_update", listener);
    }
  });

  it("CSV: product, barcode, sold, added, net, revenue, matching the summary", async () => {
    const { api: streamer } = await signIn("streamer");
    const a = await manager.create({ quantity_on_hand: 9, product_name: 'Booster "Box", 1st', price: 1250 });
    const b = await manager.create({ quantity_on_hand: 9, product_name: "=cmd" });
    const { show } = await start(streamer, "Sunday Pokémon break!");
    await tap(streamer, a, -1, show.id);
    await tap(streamer, a, -1, show.id);
    await tap(streamer, b, 1, show.id);
    const summary = (await streamer.post(`/api/shows/${show.id}/end`)).json<ShowSummary>();
    // Revenue: the product's price at each tap, for the units sold; none for a product without a price.
    expect(summary.lines.map((l) => [l.product_id, l.revenue])).toEqual([
      [b.id, null],
      [a.id, 2500],
    ]);
    expect(summary.totals.revenue).toBe(2500);
    const csv = await streamer.get(`/api/shows/${show.id}/csv`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(csv.headers["content-disposition"]).toBe(
      `attachment; filename="show-${show.id}-sunday-pokemon-break-${summary.show.started_at.slice(0, 10)}.csv"`,
    );
    expect(csv.body).toBe(
      `\uFEFFproduct,barcode,sold,added,net,revenue\r\n'=cmd,${b.barcode},0,1,1,\r\n"Booster ""Box"", 1st",${a.barcode},2,0,-2,25.00\r\n`,
    );
  });
});

describe("who sees which shows", () => {
  it("managers see and end every show; anyone else only their own", async () => {
    const { api: streamer } = await signIn("streamer");
    const { api: inventory } = await signIn("inventory");
    const mine = (await start(streamer, "Streamer's")).show;
    const theirs = (await start(inventory, "Inventory's")).show;
    const listed = (api: ReturnType<typeof caller>) =>
      api.get("/api/shows?limit=200").then((r) => r.json<ShowListItem[]>().map((s) => s.id));
    expect(await listed(streamer)).toContain(mine.id);
    expect(await listed(streamer)).not.toContain(theirs.id);
    expect(await listed(manager)).toEqual(expect.arrayContaining([mine.id, theirs.id]));
    expect((await streamer.get(`/api/shows/${theirs.id}`)).statusCode).toBe(403);
    expect((await streamer.get(`/api/shows/${theirs.id}/csv`)).statusCode).toBe(403);
    expect((await streamer.post(`/api/shows/${theirs.id}/end`)).statusCode).toBe(403);
    expect((await streamer.get("/api/shows/2000000000")).statusCode).toBe(404);
    expect((await manager.post(`/api/shows/${theirs.id}/end`)).statusCode).toBe(200);
    const list = (await manager.get("/api/shows?limit=200")).json<ShowListItem[]>();
    expect(list.find((s) => s.id === theirs.id)).toMatchObject({ name: "Inventory's", totals: { sold: 0 } });
    expect(list.map((s) => s.started_at)).toEqual([...list.map((s) => s.started_at)].sort().reverse());
  });

  it("answers 401 signed out, and the OpenAPI document describes the routes", async () => {
    const anon = caller(t.app, "");
    expect((await anon.get("/api/shows")).statusCode).toBe(401);
    expect((await anon.post("/api/shows", { name: "x" })).statusCode).toBe(401);
    const spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
    for (const path of ["/api/shows", "/api/shows/current", "/api/shows/{id}", "/api/shows/{id}/end", "/api/shows/{id}/csv"]) {
      expect(spec.paths[path]).toBeDefined();
    }
    expect(spec.paths["/api/shows/current"].get.description).toContain("An undo");
  });
});
