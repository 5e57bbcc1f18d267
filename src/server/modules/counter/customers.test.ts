import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreditEntry, CreditLedger, Customer, CustomerDetail, CustomerExport } from "../../../contract/counter.js";
import type { Role } from "../../../contract/permissions.js";
import { creditEntries, customerAudit, customerCredit } from "../../db/schema.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

let t: TestApp;
let manager: ReturnType<typeof caller>;
let inventory: ReturnType<typeof caller>;
let streamer: ReturnType<typeof caller>;

async function signIn(role: Role) {
  return caller(t.app, (await signedIn(t.app, role)).cookie);
}

beforeAll(async () => {
  t = await createTestApp();
  manager = await signIn("manager");
  inventory = await signIn("inventory");
  streamer = await signIn("streamer");
});
afterAll(async () => {
  await t?.close();
});

async function newCustomer(body: Record<string, unknown> = {}): Promise<Customer> {
  const res = await inventory.post("/api/customers", { name: "Ada Lovelace", email: "ada@example.com", phone: "555-0101", ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ customer: Customer }>().customer;
}

const credit = (id: number, amount: number, reason = "Goodwill") => manager.post(`/api/customers/${id}/credit`, { amount, reason });

describe("customers", () => {
  it("are created, found by name, email or phone, edited, and shown with their balance; every change audited", async () => {
    const name = `Grace ${Date.now()}`;
    const c = await newCustomer({ name, email: "grace@navy.example", phone: "555-1906", notes: "Collects Pokémon\nPrefers credit" });
    expect(c).toMatchObject({ name, email: "grace@navy.example", credit_balance: 0, erased_at: null });
    for (const q of [name.slice(0, 8).toLowerCase(), "grace@navy", "555-1906"]) {
      const found = (await inventory.get(`/api/customers?q=${encodeURIComponent(q)}`)).json<Customer[]>();
      expect(found.map((f) => f.id)).toContain(c.id);
    }
    expect((await inventory.get("/api/customers?q=%25")).json<Customer[]>().map((f) => f.id)).not.toContain(c.id);
    const edited = await inventory.put(`/api/customers/${c.id}`, { name, email: "grace@example.com", phone: "555-1906" });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json<{ customer: Customer }>().customer).toMatchObject({ email: "grace@example.com", notes: null });
    const audit = await t.app.db.select().from(customerAudit).where(eq(customerAudit.customerId, c.id));
    expect(audit.map((a) => [a.action, a.fields])).toEqual([
      ["created", ["name", "email", "phone", "notes"]],
      ["updated", ["email", "notes"]],
    ]);
    const bad = await inventory.post("/api/customers", { name: " ", email: "not-an-email" });
    expect(bad.statusCode).toBe(400);
  });

  it("are read and written by inventory, managers and super_admin; a streamer gets 403 everywhere", async () => {
    const c = await newCustomer();
    const admin = await signIn("super_admin");
    expect((await admin.get(`/api/customers/${c.id}`)).statusCode).toBe(200);
    expect((await manager.get(`/api/customers/${c.id}`)).statusCode).toBe(200);
    for (const res of [
      await streamer.get("/api/customers"),
      await streamer.post("/api/customers", { name: "Eve" }),
      await streamer.get(`/api/customers/${c.id}`),
      await streamer.put(`/api/customers/${c.id}`, { name: "Eve" }),
      await streamer.get(`/api/customers/${c.id}/export`),
      await streamer.post(`/api/customers/${c.id}/erase`),
      await streamer.get(`/api/customers/${c.id}/credit`),
      await streamer.post(`/api/customers/${c.id}/credit`, { amount: 100, reason: "x" }),
    ]) {
      expect(res.statusCode).toBe(403);
    }
    expect((await inventory.get("/api/customers/999999")).statusCode).toBe(404);
  });
});

describe("store credit", () => {
  it("is a ledger: managers adjust with a reason, each entry says who, why and the balance after; inventory may not adjust", async () => {
    const c = await newCustomer();
    const add = await credit(c.id, 2500, "Birthday credit");
    expect(add.statusCode, add.body).toBe(201);
    expect(add.json<{ entry: CreditEntry; balance: number }>()).toMatchObject({
      balance: 2500,
      entry: { amount: 2500, kind: "adjustment", reason: "Birthday credit", balance_after: 2500 },
    });
    const take = await manager.post(`/api/customers/${c.id}/credit`, { amount: -500, kind: "expiry", reason: "Expired after a year" });
    expect(take.statusCode, take.body).toBe(201);
    const ledger = (await inventory.get(`/api/customers/${c.id}/credit`)).json<CreditLedger>();
    expect(ledger.balance).toBe(2000);
    expect(ledger.entries.map((e) => [e.amount, e.kind, e.balance_after])).toEqual([
      [-500, "expiry", 2000],
      [2500, "adjustment", 2500],
    ]);
    expect(ledger.entries.every((e) => e.created_by.length > 0)).toBe(true);
    expect((await inventory.post(`/api/customers/${c.id}/credit`, { amount: 100, reason: "Mine" })).statusCode).toBe(403);
    expect((await credit(c.id, 100, "")).statusCode).toBe(400);
    expect((await credit(c.id, 0)).statusCode).toBe(400);
  });

  it("never goes below 0: a spend larger than the balance is refused (409) and writes nothing", async () => {
    const c = await newCustomer();
    await credit(c.id, 300);
    const res = await credit(c.id, -301, "Too much");
    expect(res.statusCode).toBe(409);
    expect(res.json<{ error: string; balance: number }>()).toMatchObject({ balance: 300 });
    expect(res.json<{ error: string }>().error).toMatch(/Not enough store credit/);
    expect((await inventory.get(`/api/customers/${c.id}/credit`)).json<CreditLedger>().entries).toHaveLength(1);
  });

  it("10 spends at once of a balance that covers 3: exactly 3 apply, the balance is 0 and equals the ledger's sum", async () => {
    const c = await newCustomer();
    await credit(c.id, 3000);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => credit(c.id, -1000, `Spend ${i}`)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, 201, 201, 409, 409, 409, 409, 409, 409, 409]);
    const [row] = await t.app.db.select().from(customerCredit).where(eq(customerCredit.customerId, c.id));
    expect(Number(row?.balance)).toBe(0);
    const [sum] = await t.app.db
      .select({ sum: sql<string>`sum(${creditEntries.amount})` })
      .from(creditEntries)
      .where(eq(creditEntries.customerId, c.id));
    expect(Number(sum?.sum)).toBe(0);
  });

  it("is append-only: the database refuses to change or remove an entry", async () => {
    const c = await newCustomer();
    await credit(c.id, 100);
    await expect(t.app.db.update(creditEntries).set({ amount: 1_000_000 }).where(eq(creditEntries.customerId, c.id))).rejects.toThrow();
    await expect(t.app.db.delete(creditEntries).where(eq(creditEntries.customerId, c.id))).rejects.toThrow();
    expect((await inventory.get(`/api/customers/${c.id}/credit`)).json<CreditLedger>().balance).toBe(100);
  });
});

describe("a customer's data", () => {
  it("is exported whole as JSON (audited), and erasing removes the person but keeps the ledger and its sums", async () => {
    const c = await newCustomer({ name: "Erin Erasable", email: "erin@example.com", phone: "555-0199", notes: "Trades on Fridays" });
    await credit(c.id, 1200, "Opening balance");
    await credit(c.id, -200, "Spent at the counter");
    // A trade-in whose note names the person (as an online buylist's note does).
    const draft = await inventory.post("/api/trade-ins", { customer_id: c.id, note: "From Erin Erasable <erin@example.com>, 555-0199" });
    expect(draft.statusCode, draft.body).toBe(201);
    const exported = await inventory.get(`/api/customers/${c.id}/export`);
    expect(exported.statusCode, exported.body).toBe(200);
    const data = exported.json<CustomerExport>();
    expect(data.customer).toMatchObject({ name: "Erin Erasable", email: "erin@example.com", phone: "555-0199", credit_balance: 1000 });
    expect(data.credit.entries).toHaveLength(2);
    expect(data.exported_at).toMatch(/^\d{4}-/);

    const erased = await inventory.post(`/api/customers/${c.id}/erase`);
    expect(erased.statusCode, erased.body).toBe(200);
    expect(erased.json<{ customer: Customer }>().customer).toMatchObject({
      name: "",
      email: null,
      phone: null,
      notes: null,
      credit_balance: 1000,
    });
    const after = (await inventory.get(`/api/customers/${c.id}`)).json<CustomerDetail>();
    expect(after.customer.erased_at).not.toBeNull();
    expect(after.credit.balance).toBe(1000);
    expect(after.credit.entries.map((e) => e.amount)).toEqual([-200, 1200]);
    expect(after.credit.entries.reduce((s, e) => s + e.amount, 0)).toBe(1000);
    expect(JSON.stringify(after)).not.toMatch(/Erin|erin@example|555-0199|Fridays/);
    expect((await inventory.get("/api/customers?q=Erin")).json<Customer[]>().map((f) => f.id)).not.toContain(c.id);
    expect((await inventory.post(`/api/customers/${c.id}/erase`)).statusCode).toBe(409);
    expect((await inventory.put(`/api/customers/${c.id}`, { name: "Back again" })).statusCode).toBe(409);
    const audit = await t.app.db.select().from(customerAudit).where(eq(customerAudit.customerId, c.id));
    expect(audit.map((a) => [a.action, a.fields])).toEqual([
      ["created", ["name", "email", "phone", "notes"]],
      ["exported", []],
      ["erased", ["name", "email", "phone", "notes"]],
    ]);
  });
});
