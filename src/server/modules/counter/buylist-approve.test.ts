import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BuylistReceipt, BuylistSubmission } from "../../../contract/buylist.js";
import { COUNTER_MESSAGES, onlineListStatus, type TradeIn } from "../../../contract/counter.js";
import type { CreatedToken } from "../../../contract/tokens.js";
import { marketPrices, priceFeeds } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller, newBarcode } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;
let productId: number;

const today = () => new Date().toISOString().slice(0, 10);

beforeAll(async () => {
  t = await createTestApp();
  manager = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  inventory = caller(t.app, (await signedIn(t.app, "inventory")).cookie);
  streamer = caller(t.app, (await signedIn(t.app, "streamer")).cookie);
  const [feed] = await t.app.db.insert(priceFeeds).values({ name: "Buylist approval test feed", format: "csv" }).returning();
  const p = await manager.create({ product_name: `${newBarcode("Approve")} card`, quantity_on_hand: 1, cost: 300 });
  productId = p.id;
  await t.app.db.insert(marketPrices).values({
    productId,
    feedId: (feed as { id: number }).id,
    day: today(),
    checkedOn: today(),
    finish: "normal",
    currency: "USD",
    market: 1000,
  });
  expect((await manager.put(`/api/buy-settings/limits/${productId}`, { buy_limit: 20 })).statusCode).toBe(200);
  expect((await manager.put("/api/buy-settings", { cash_percent: 50, credit_percent: 70 })).statusCode).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

/** A customer's submission of the public buylist: the draft staff receive. */
async function submitted(remoteAddress: string): Promise<TradeIn> {
  const body: BuylistSubmission = {
    name: "Pat Pending",
    email: `pat-${newBarcode("e")}@example.com`,
    phone: null,
    payout: "cash",
    lines: [{ product_id: productId, quantity: 2 }],
    note: null,
  };
  const res = await t.app.inject({ method: "POST", url: "/api/buylist/submissions", payload: body, remoteAddress });
  expect(res.statusCode, res.body).toBe(201);
  const reference = res.json<{ submission: BuylistReceipt }>().submission.reference;
  const drafts = (await inventory.get("/api/trade-ins?status=draft&limit=200")).json<TradeIn[]>();
  const draft = drafts.find((d) => d.number === reference);
  expect(draft).toBeDefined();
  return draft as TradeIn;
}

const approve = (api: ReturnType<typeof caller>, id: number) => api.post(`/api/trade-ins/${id}/approve`);

describe("POST /api/trade-ins/{id}/approve (online buylist: Pending, Approved, Complete)", () => {
  it("approves a pending online list once; it can still be adjusted and accepted (Complete)", async () => {
    const draft = await submitted("10.9.0.1");
    expect(draft).toMatchObject({ source: "online", status: "draft", approved_by: null, approved_at: null });
    expect(onlineListStatus(draft)).toBe("Pending");

    expect((await approve(streamer, draft.id)).statusCode).toBe(403);
    const res = await approve(inventory, draft.id);
    expect(res.statusCode, res.body).toBe(200);
    const approved = res.json<{ trade_in: TradeIn }>().trade_in;
    expect(approved).toMatchObject({ id: draft.id, status: "draft", source: "online" });
    expect(approved.approved_by).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(approved.approved_at ?? ""))).toBe(false);
    expect(onlineListStatus(approved)).toBe("Approved");
    expect((await inventory.get(`/api/trade-ins/${draft.id}`)).json<{ trade_in: TradeIn }>().trade_in).toMatchObject({
      approved_by: approved.approved_by,
      approved_at: approved.approved_at,
    });

    const again = await approve(manager, draft.id);
    expect(again.statusCode).toBe(409);
    expect(again.json<{ error: string }>().error).toBe(COUNTER_MESSAGES.notApprovable("approved"));

    // The cards arrive: staff adjust it (one card fewer) and accept it.
    const adjusted = await inventory.put(`/api/trade-ins/${draft.id}`, {
      customer_id: draft.customer_id,
      payout: "cash",
      lines: [{ product_id: productId, quantity: 1 }],
    });
    expect(adjusted.statusCode, adjusted.body).toBe(200);
    expect(adjusted.json<{ trade_in: TradeIn }>().trade_in).toMatchObject({ cash_cents: 500, approved_by: approved.approved_by });
    const accepted = await inventory.post(`/api/trade-ins/${draft.id}/accept`);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const complete = accepted.json<{ trade_in: TradeIn }>().trade_in;
    expect(complete).toMatchObject({ status: "accepted", approved_at: approved.approved_at });
    expect(onlineListStatus(complete)).toBe("Complete");
    const late = await approve(manager, draft.id);
    expect(late.statusCode).toBe(409);
    expect(late.json<{ error: string }>().error).toBe(COUNTER_MESSAGES.notApprovable("accepted"));
  });

  it("answers 409 for a trade-in made at the counter, 404 for none; a trade_ins:write token approves", async () => {
    const made = await inventory.post("/api/trade-ins", { lines: [{ product_id: productId, quantity: 1 }] });
    expect(made.statusCode, made.body).toBe(201);
    const counterDraft = made.json<{ trade_in: TradeIn }>().trade_in;
    expect(onlineListStatus(counterDraft)).toBeNull();
    const res = await approve(manager, counterDraft.id);
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string }>().error).toBe(COUNTER_MESSAGES.notApprovable("not_online"));
    expect((await approve(manager, 999999)).statusCode).toBe(404);

    const draft = await submitted("10.9.0.2");
    const tokenOf = async (scopes: string[]) => {
      const created = await manager.post("/api/tokens", { name: `Approve ${newBarcode("t")}`, scopes });
      expect(created.statusCode, created.body).toBe(201);
      return created.json<CreatedToken>().secret;
    };
    const viaToken = (secret: string) =>
      t.app.inject({ method: "POST", url: `/api/trade-ins/${draft.id}/approve`, headers: { authorization: `Bearer ${secret}` } });
    expect((await viaToken(await tokenOf(["products:read"]))).statusCode).toBe(403);
    const ok = await viaToken(await tokenOf(["trade_ins:write"]));
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json<{ trade_in: TradeIn }>().trade_in.approved_at).not.toBeNull();
  });
});
