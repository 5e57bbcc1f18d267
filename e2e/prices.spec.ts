import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks, preferTableView, productRow } from "./support/page";

// One at a time: each feed's run makes every waiting proposal again (new ids), so a run in one
// test would take the proposals another test is about to accept from under it.
test.describe.configure({ mode: "default" });

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** A product feeds find by its Scryfall id (set through the API, as a script would). */
async function cardWithScryfallId(fields: Partial<Product>): Promise<{ product: Product; scryfallId: string }> {
  const product = await createProduct(api, { product_name: uniqueName("Lotus"), quantity_on_hand: 2, ...fields });
  const scryfallId = randomUUID();
  const res = await api.put(`/api/products/${product.id}/market`, { data: { scryfall_id: scryfallId } });
  expect(res.status()).toBe(200);
  return { product, scryfallId };
}

async function openPrices(page: Page) {
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Prices" }).click();
  await expect(page.getByRole("heading", { name: "Prices", level: 1 })).toBeVisible();
  // Every section loaded: one that fills in above "Add feed" moves it while it is being clicked.
  await expect(page.getByText(/Loading/)).toHaveCount(0);
}

/** Adds a CSV feed on the Prices screen and uploads `csv` as its file. */
async function addFeedAndUpload(page: Page, name: string, csv: string) {
  await page.getByRole("button", { name: "Add feed" }).click();
  const dialog = page.getByRole("dialog", { name: "Add price feed" });
  await dialog.getByLabel("Name").fill(name);
  await expect(dialog.getByLabel("Format")).toHaveValue("csv");
  await dialog.getByRole("button", { name: "Add feed" }).click();
  await expect(dialog).toHaveCount(0);
  const card = page.getByRole("article", { name });
  await expect(card).toContainText("Never read yet.");
  await card.getByLabel(`Feed file for ${name}`).setInputFiles({ name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await card.getByRole("button", { name: `Upload file for ${name}` }).click();
  return card;
}

const proposalRow = (page: Page, p: Pick<Product, "barcode">) => page.locator(`[data-testid="proposal-row"][data-barcode="${p.barcode}"]`);

test("a manager uploads a CSV feed, accepts one new price, sees it in the inventory and the market price on the streamer screen, and Undo puts the old price back", async ({
  page,
}) => {
  const manager = await createUser(api, "manager");
  const rising = await cardWithScryfallId({ price: 1000 });
  const falling = await cardWithScryfallId({ price: 800 });
  const feed = uniqueName("Shop CSV");

  await preferTableView(page);
  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  await openPrices(page);
  const card = await addFeedAndUpload(page, feed, `scryfall_id,price\n${rising.scryfallId},12.34\n${falling.scryfallId},5.00\n`);

  // The run's outcome: said, and on the feed's row (the proposals it counts are the shop's, other tests' too).
  await expect(page.getByText(new RegExp(`^${feed}: 2 records read, 2 matched, \\d+ new prices to review$`))).toBeVisible();
  const run = card.getByTestId("feed-last-run");
  await expect(run).toContainText("Done");
  await expect(run).toContainText("Matched2");

  // The proposals: prices, the move, big ones flagged, and why.
  const up = proposalRow(page, rising.product);
  await expect(up).toContainText(rising.product.product_name);
  await expect(up.getByRole("cell").nth(1)).toHaveText("$10.00");
  await expect(up.getByRole("cell").nth(2)).toHaveText("$12.34");
  await expect(up.getByRole("cell").nth(4)).toHaveText("+23.4%");
  await expect(up).not.toContainText("Big move");
  const down = proposalRow(page, falling.product);
  await expect(down.getByRole("cell").nth(4)).toHaveText("-37.5%");
  await expect(down).toContainText("Big move");
  await down.getByText("Why").click();
  await expect(down.getByRole("listitem").first()).toContainText("$5.00");

  await up.getByRole("checkbox", { name: `Select ${rising.product.product_name}` }).check();
  await page.getByRole("button", { name: "Accept selected (1)" }).click();
  const accepted = page.getByRole("listitem").filter({ hasText: "Accepted 1 new price" });
  await expect(accepted).toBeVisible();
  await expect(up).toHaveCount(0);
  await expect(down).toBeVisible();

  // The new price in the inventory table, as the import writes it.
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Full Inventory" }).click();
  await page.getByRole("searchbox", { name: "Search products" }).fill(rising.product.product_name);
  await expect(productRow(page, rising.product)).toContainText("$12.34");
  // The search is in the address before the next screen opens (a search written after the
  // inventory was left brings it back).
  await expect(page).toHaveURL(/\/inventory\?q=/);
  // Only the price changed: the stock and the other fields are as they were.
  const written = (await (await api.get(`/api/products/barcode/${rising.product.barcode}`)).json()) as Product;
  expect(written).toMatchObject({ price: 1234, quantity_on_hand: 2, release_year: rising.product.release_year, is_active: true });

  // The market price on the streamer screen, beside the price.
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Streamer View" }).click();
  await page.getByRole("button", { name: "Scan Barcode" }).click();
  await page.getByLabel("Enter barcode manually").fill(rising.product.barcode);
  await page.getByRole("button", { name: "Look Up Product" }).click();
  const current = page.getByTestId("current-product");
  await expect(current.getByTestId("current-price")).toHaveText("Price $12.34");
  await expect(current.getByTestId("current-market")).toHaveText("Market $12.34 · seen today");

  // Undo from the message: the old price is back, here and on the server.
  await accepted.getByRole("button", { name: "Undo" }).click();
  await expect(page.getByText("Old prices back on 1 product")).toBeVisible();
  await expect(current.getByTestId("current-price")).toHaveText("Price $10.00");
  const after = (await (await api.get(`/api/products/barcode/${rising.product.barcode}`)).json()) as Product;
  expect(after.price).toBe(1000);
});

for (const theme of ["light", "dark"] as const) {
  test(`the Prices view: no axe violations in the ${theme} theme, laptop and phone`, async ({ page }) => {
    test.slow();
    await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
    const manager = await createUser(api, "manager");
    const card = await cardWithScryfallId({ price: 2000 });
    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, manager);
    await letLiveToastsPassClicks(page);
    await openPrices(page);
    const feed = uniqueName("Axe CSV");
    await addFeedAndUpload(page, feed, `scryfall_id,price\n${card.scryfallId},30.00\n`);
    await expect(proposalRow(page, card.product)).toBeVisible();
    await expect(page.getByLabel("Near Mint %")).toBeVisible();
    await proposalRow(page, card.product).getByText("Why").click();
    await expectNoAxeViolations(page, { colours: theme === "dark" });

    await page.setViewportSize({ width: 390, height: 844 });
    // Nothing wider than the phone but the table, which scrolls in its own region.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await expectNoAxeViolations(page, { colours: theme === "dark" });
  });
}

test("where people look: the market price beside the price in the inventory (laptop and phone), the products priced under market with a link to each, an unmatched product linked to its printing, and the stock at market in Reports", async ({
  page,
}, testInfo) => {
  const manager = await createUser(api, "manager");
  // Under market by $8,999 a unit, 5 in stock: near the top of the shop's list.
  const under = await cardWithScryfallId({ price: 100, quantity_on_hand: 5 });
  // Named to come first in the unmatched list, which is by name.
  const name = `0000 ${uniqueName("Mox")}`;
  const loose = await createProduct(api, { product_name: name, price: 500 });
  const printing = randomUUID();
  const feed = uniqueName("Looks CSV");

  await preferTableView(page);
  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  await openPrices(page);
  const card = await addFeedAndUpload(
    page,
    feed,
    `scryfall_id,name,price\n${under.scryfallId},${under.product.product_name},9000.00\n${printing},${name} (Alpha),7.50\n`,
  );
  await expect(card.getByTestId("feed-last-run")).toContainText("Matched1");

  // Priced under market: the gap and the money at stake; the name links to the product's address.
  const row = page.getByTestId("prices-under-market").getByTestId("under-market-row").filter({ hasText: under.product.product_name });
  await expect(row.getByRole("cell")).toHaveText(["$1.00", "$9,000.00seen today", "$8,999.00100%", "5", "$44,995.00"]);
  await page.screenshot({ path: testInfo.outputPath("prices-laptop.png"), fullPage: true });
  const link = row.getByRole("link", { name: under.product.product_name });
  await expect(link).toHaveAttribute("href", `/inventory/products/${under.product.id}`);
  await link.click();
  await expect(page).toHaveURL(new RegExp(`/inventory/products/${under.product.id}$`));
  await expect(page.getByRole("dialog", { name: "Edit Product" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/prices$/);

  // Unmatched: the product no id or set finds, linked by the printing's name, with the keyboard.
  const unmatched = page.getByTestId("prices-unmatched");
  await expect(unmatched.getByTestId("unmatched-row").first()).toBeVisible();
  const feedChoice = unmatched.getByLabel("Feed", { exact: true });
  if (await feedChoice.isVisible()) await feedChoice.selectOption({ label: feed });
  const looseRow = unmatched.getByTestId("unmatched-row").filter({ hasText: name });
  await looseRow.getByRole("button", { name: `Link ${name}` }).focus();
  await page.keyboard.press("Enter");
  const dialog = page.getByRole("dialog", { name: `Link ${name}` });
  await expect(dialog.getByLabel("Card name")).toBeFocused();
  await expect(dialog.getByLabel("Card name")).toHaveValue(name);
  const pick = dialog.getByRole("button", { name: `Link to ${name} (Alpha), Normal` });
  await expect(dialog.getByTestId("feed-card-result")).toContainText(["market $7.50"]);
  await pick.focus();
  await page.keyboard.press("Enter");
  await expect(dialog).toHaveCount(0);
  await expect(looseRow).toContainText("Linked: priced at the feed's next run");
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: testInfo.outputPath("prices-phone.png"), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 720 });
  const linked = await (await api.get(`/api/products/${loose.id}/market-prices`)).json();
  expect(linked.ids).toMatchObject({ scryfall_id: printing, finish: "normal" });

  // The inventory: the market price and its age beside the price, in its own column on a laptop...
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Full Inventory" }).click();
  await page.getByRole("searchbox", { name: "Search products" }).fill(under.product.product_name);
  await expect(productRow(page, under.product).getByTestId("market-cell")).toHaveText("$9,000.00today");
  await page.screenshot({ path: testInfo.outputPath("inventory-market-laptop.png") });
  await expect(page.getByRole("columnheader", { name: "Market" })).toBeVisible();
  // ...and under the price on a phone's table.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole("columnheader", { name: "Market" })).toHaveCount(0);
  await expect(productRow(page, under.product).getByTestId("market-cell")).toHaveText("Mkt $9,000.00, seen today");
  // The cards, a phone's own view, say it too.
  await page.getByRole("button", { name: "Cards" }).click();
  await expect(page.locator(`[data-testid="product-card"][data-barcode="${under.product.barcode}"]`).getByTestId("card-market")).toHaveText(
    "$9,000.00 · seen today",
  );
  await page.setViewportSize({ width: 1280, height: 800 });

  // Reports: the stock now at market beside the value at price and at cost.
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByTestId("stock-at-market")).toContainText("at market now");
});
