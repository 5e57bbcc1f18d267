import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Customer, CustomerDetail } from "../src/contract/counter";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueEan13, uniqueName } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { barcodeVideo, launchWithCamera } from "./support/fake-camera";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** A printing the feed prices that no product has: what a card not yet in the catalogue is added from. */
type FeedOnly = { name: string; set: string; number: string; price: number };

/**
 * Cards with a market price today: each found by its Scryfall id in a CSV feed run through the
 * API; `feedOnly` printings are in the feed too (with their name, set and number), matching no product.
 */
async function pricedCards(prices: number[], barcodes: string[] = [], feedOnly: FeedOnly[] = []): Promise<Product[]> {
  const cards: Product[] = [];
  const rows: string[] = [];
  for (const [i, price] of prices.entries()) {
    const product = await createProduct(api, {
      product_name: uniqueName("Counter card"),
      quantity_on_hand: 1,
      ...(barcodes[i] ? { barcode: barcodes[i] } : {}),
    });
    const scryfallId = randomUUID();
    expect((await api.put(`/api/products/${product.id}/market`, { data: { scryfall_id: scryfallId } })).status()).toBe(200);
    rows.push(feedOnly.length ? `${scryfallId},,,,${(price / 100).toFixed(2)}` : `${scryfallId},${(price / 100).toFixed(2)}`);
    cards.push(product);
  }
  for (const card of feedOnly) rows.push(`${randomUUID()},${card.name},${card.set},${card.number},${(card.price / 100).toFixed(2)}`);
  const header = feedOnly.length ? "scryfall_id,name,set,number,price" : "scryfall_id,price";
  const feed = await api.post("/api/prices/feeds", { data: { name: uniqueName("Counter feed"), format: "csv" } });
  expect(feed.status()).toBe(201);
  const { id } = (await feed.json()) as { id: number };
  const run = await api.post(`/api/prices/feeds/${id}/run`, {
    multipart: { file: { name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(`${header}\n${rows.join("\n")}\n`) } },
  });
  expect(run.status()).toBe(200);
  expect(await run.json()).toMatchObject({ status: "done", matched: prices.length });
  return cards;
}

async function stockOf(barcode: string): Promise<number> {
  const res = await api.get(`/api/products/barcode/${barcode}`);
  return ((await res.json()) as Product).quantity_on_hand;
}

const views = (page: Page) => page.getByRole("navigation", { name: "Views" });

test("at the counter: a new customer, three cards (one by a USB scanner, one new from the price feed, one by the camera), credit, accept, the receipt, credit spent on an order, the balance", async () => {
  const cameraCode = uniqueEan13();
  const fresh: FeedOnly = { name: uniqueName("Feed only card"), set: "Counter Test Set", number: "7", price: 400 };
  const [first, third] = await pricedCards([1000, 200], ["", cameraCode], [fresh]);
  if (!first || !third) throw new Error("cards not made");
  const user = await createUser(api, "inventory");
  const browser = await launchWithCamera(await barcodeVideo(cameraCode));
  try {
    const page = await browser.newPage({ baseURL: E2E_BASE_URL });
    await signIn(page, user);
    await letLiveToastsPassClicks(page);
    await views(page).getByRole("link", { name: "Counter" }).click();
    await expect(page).toHaveURL(/\/counter$/);
    await expect(page.getByRole("heading", { name: "Counter", level: 1 })).toBeVisible();
    await expect(page.getByText("No cards yet: scan a barcode or search by name.")).toBeVisible();

    // The customer, new.
    const name = uniqueName("Ada Lovelace");
    await page.getByRole("button", { name: "New customer" }).click();
    await page.getByLabel("Name", { exact: true }).fill(name);
    await page.getByLabel("Email (optional)").fill(`${name.toLowerCase().replace(" ", ".")}@example.com`);
    await page.getByLabel("Phone (optional)").fill("+44 20 7946 0000");
    await page.getByRole("button", { name: "Create customer" }).click();
    await expect(page.getByTestId("picked-customer")).toContainText(name);
    await expect(page.getByTestId("picked-customer")).toContainText("Credit $0.00");

    // Two cards as a USB scanner types them: into the focused scan field, ending with Enter.
    const field = page.getByLabel("Scan a barcode or search by name");
    const announced = page.getByTestId("counter-announcement");
    await field.focus();
    await field.pressSequentially(first.barcode, { delay: 5 });
    await field.press("Enter");
    await expect(announced).toHaveText(`Added ${first.product_name}, 1 at $5.00 cash or $6.50 credit each`);
    await expect(field).toBeFocused();
    await expect(field).toHaveValue("");

    // The second is not in the catalogue yet: found by name in the price feed, added to the catalogue and traded in, by keyboard.
    await field.fill(fresh.name);
    await field.press("Enter");
    await expect(page.getByText(`No card in the catalogue matches "${fresh.name}".`)).toBeVisible();
    await page.getByRole("button", { name: "Search the price feed" }).click();
    const printings = page.getByRole("list", { name: `Price feed printings matching ${fresh.name}` });
    await expect(printings.getByRole("listitem")).toHaveCount(1);
    await expect(printings).toContainText("Counter Test Set #7 · Normal · Market $4.00");
    await expectNoAxeViolations(page);
    const created = page.waitForResponse((r) => r.url().endsWith("/api/counter/products-from-feed") && r.request().method() === "POST");
    await page.keyboard.press("Tab");
    await expect(printings.getByRole("button", { name: /^Add to catalogue and trade in/ })).toBeFocused();
    await page.keyboard.press("Enter");
    const second = (await (await created).json()) as Product;
    expect(second).toMatchObject({ product_name: fresh.name, set_name: "Counter Test Set", card_number: "7", quantity_on_hand: 0 });
    await expect(announced).toHaveText(`Added ${fresh.name}, 1 at $2.00 cash or $2.60 credit each`);
    await expect(field).toBeFocused();
    await expect(printings).toHaveCount(0);

    // The third by the camera; focus comes back to the scan field.
    await page.getByRole("button", { name: "Scan with camera" }).click();
    await expect(announced).toHaveText(`Added ${third.product_name}, 1 at $1.00 cash or $1.30 credit each`, { timeout: 20_000 });
    await expect(page.getByTestId("scanner-overlay")).toHaveCount(0);
    await expect(field).toBeFocused();

    const lines = page.getByTestId("trade-in-line");
    await expect(lines).toHaveCount(3);
    await expect(lines.nth(0)).toContainText(first.product_name);
    await expect(lines.nth(0)).toContainText("$10.00");
    await expect(page.getByTestId("total-cash")).toHaveText("$8.00");
    await expect(page.getByTestId("total-credit")).toHaveText("$10.40");
    await expectNoAxeViolations(page);

    // The customer takes store credit.
    await page.getByRole("radio", { name: "Store credit" }).check();
    await expect(page.getByTestId("payout")).toHaveText("Pay: $0.00 cash, $10.40 store credit");
    await page.getByRole("button", { name: "Accept trade-in" }).click();
    const done = page.getByTestId("accepted-trade-in");
    await expect(done).toContainText(/Trade-in #\d+ accepted/);
    await expect(done).toContainText(`Paid $0.00 in cash and $10.40 in store credit to ${name}`);
    for (const card of [first, third]) await expect.poll(() => stockOf(card.barcode)).toBe(2);
    await expect.poll(() => stockOf(second.barcode)).toBe(1);

    // The receipt: a PDF download.
    const download = page.waitForEvent("download");
    await done.getByRole("button", { name: "Print receipt" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^trade-in-\d+\.pdf$/);
    const path = await file.path();
    expect(readFileSync(path).subarray(0, 5).toString()).toBe("%PDF-");

    // Part of the credit spent on an order, through the API.
    const found = (await (await api.get(`/api/customers?q=${encodeURIComponent(name)}`)).json()) as Customer[];
    const customer = found[0];
    if (!customer) throw new Error("customer not found");
    expect(customer.credit_balance).toBe(1040);
    const order = await api.post("/api/orders", {
      data: {
        channel: "counter",
        external_id: uniqueName("sale"),
        lines: [{ product_id: first.id, quantity: 1, unit_price: 500 }],
        customer_id: customer.id,
        payments: [
          { method: "credit", amount: 300 },
          { method: "cash", amount: 200 },
        ],
      },
    });
    expect(order.status()).toBe(201);

    // The customer's page: the balance and the ledger.
    await views(page).getByRole("link", { name: "Customers" }).click();
    await page.getByLabel("Search customers").fill(name);
    await page.getByRole("button", { name: new RegExp(name) }).click();
    await expect(page).toHaveURL(new RegExp(`/customers/${customer.id}$`));
    await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
    await expect(page.getByTestId("credit-balance")).toHaveText("$7.40");
    await expect(page.getByTestId("credit-entry")).toHaveCount(2);
    await expect(page.getByRole("list", { name: "Trade-ins" })).toContainText("accepted");
    await expect(page.getByRole("list", { name: "Orders" })).toContainText("counter");
    await expectNoAxeViolations(page);
  } finally {
    await browser.close();
  }
});

test("customers: a manager adjusts credit with a reason, exports the data and erases the person, keeping the ledger", async ({ page }) => {
  const created = await api.post("/api/customers", { data: { name: uniqueName("Grace Hopper"), email: "grace@example.com" } });
  expect(created.status()).toBe(201);
  const { customer } = (await created.json()) as { customer: Customer };
  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByRole("heading", { name: customer.name, level: 1 })).toBeVisible();
  await expect(page.getByText("No store credit yet.")).toBeVisible();

  await page.getByLabel("Amount (+ or -)").fill("12.50");
  await page.getByLabel("Reason").fill("Goodwill for a late order");
  await page.getByRole("button", { name: "Adjust credit" }).click();
  await expect(page.getByTestId("credit-balance")).toHaveText("$12.50");
  await expect(page.getByTestId("credit-entry")).toContainText("Goodwill for a late order");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export data (JSON)" }).click();
  const exported = JSON.parse(readFileSync(await (await download).path(), "utf8")) as CustomerDetail;
  expect(exported.customer.email).toBe("grace@example.com");
  expect(exported.credit.balance).toBe(1250);

  await page.getByRole("button", { name: "Erase customer" }).click();
  const dialog = page.getByRole("dialog", { name: `Erase ${customer.name}?` });
  await expect(dialog).toContainText("store credit ledger are kept");
  await expectNoAxeViolations(page);
  await dialog.getByRole("button", { name: "Erase customer" }).click();
  await expect(page.getByRole("heading", { name: "Erased customer", level: 1 })).toBeVisible();
  await expect(page.getByTestId("credit-balance")).toHaveText("$12.50");
});

test("a manager reverses an accepted trade-in from the customer's page, with a reason: its stock and credit are taken back", async ({
  page,
}) => {
  const [card] = await pricedCards([1000]);
  if (!card) throw new Error("card not made");
  const created = await api.post("/api/customers", { data: { name: uniqueName("Alan Turing") } });
  const { customer } = (await created.json()) as { customer: Customer };
  const made = await api.post("/api/trade-ins", {
    data: { customer_id: customer.id, payout: "credit", lines: [{ product_id: card.id, condition: "Near Mint", quantity: 2 }] },
  });
  expect(made.status()).toBe(201);
  const { trade_in: tradeIn } = (await made.json()) as { trade_in: { id: number; number: number } };
  expect((await api.post(`/api/trade-ins/${tradeIn.id}/accept`)).status()).toBe(200);
  expect(await stockOf(card.barcode)).toBe(3);

  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.goto(`/customers/${customer.id}`);
  await expect(page.getByTestId("credit-balance")).toHaveText("$13.00");
  await page.getByRole("button", { name: `Reverse trade-in #${tradeIn.number}` }).click();
  const dialog = page.getByRole("dialog", { name: `Reverse trade-in #${tradeIn.number}?` });
  await expect(dialog).toContainText("$13.00 of store credit is taken back");
  await dialog.getByRole("button", { name: "Reverse trade-in" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("A reason is required");
  await dialog.getByLabel("Reason for reversing").fill("Counterfeit cards");
  await expectNoAxeViolations(page);
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId("credit-balance")).toHaveText("$0.00");
  await expect(page.getByTestId("credit-entry")).toHaveCount(2);
  const trades = page.getByRole("list", { name: "Trade-ins" });
  await expect(trades).toContainText("reversed");
  await expect(trades).toContainText("Reversed: Counterfeit cards");
  await expect(trades.getByRole("button", { name: `Reverse trade-in #${tradeIn.number}` })).toHaveCount(0);
  expect(await stockOf(card.barcode)).toBe(1);
});

test("a streamer who opens the counter lands on the streamer view, told so", async ({ page }) => {
  await signIn(page, await createUser(api, "streamer"));
  await page.goto("/counter");
  await expect(page).toHaveURL(/\/streamer$/);
  await expect(page.getByText("You don't have access to Counter")).toBeVisible();
});

for (const theme of ["light", "dark"] as const) {
  test(`the Counter (a draft resumed) and Customers views: no axe violations in the ${theme} theme, on a phone`, async ({ page }, info) => {
    const [card] = await pricedCards([800]);
    if (!card) throw new Error("card not made");
    const made = await api.post("/api/trade-ins", { data: { lines: [{ product_id: card.id, condition: "Lightly Played", quantity: 2 }] } });
    expect(made.status()).toBe(201);
    const { trade_in: draft } = (await made.json()) as { trade_in: { number: number } };
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
    await signIn(page, await createUser(api, "inventory"));
    await letLiveToastsPassClicks(page);
    await page.goto("/counter");
    await expect(page.getByRole("heading", { name: "Counter", level: 1 })).toBeVisible();
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    // A draft saved earlier, finished now.
    await page.getByRole("button", { name: `Resume trade-in #${draft.number}` }).click();
    await expect(page.getByTestId("trade-in-line")).toContainText(card.product_name);
    await expect(page.getByLabel(`Condition of ${card.product_name}`)).toHaveValue("Lightly Played");
    await expect(page.getByLabel("Scan a barcode or search by name")).toBeFocused();
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    await page.screenshot({ path: info.outputPath(`counter-phone-${theme}.png`), fullPage: true });
    await page.goto("/customers");
    await expect(page.getByRole("heading", { name: "Customers", level: 1 })).toBeVisible();
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    await expectNoAxeViolations(page, { colours: theme === "dark" });
  });
}
