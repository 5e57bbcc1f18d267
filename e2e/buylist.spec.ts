import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** Stock and cost no customer may see: figures the page's text is searched for. */
const ON_HAND = 8641;
const COST_CENTS = 1234;

/**
 * Cards the shop is buying: each with ON_HAND in stock at COST_CENTS, a buy limit of ON_HAND + 3
 * (3 wanted) and a market price today from a CSV feed run through the API.
 */
async function wantedCards(prefix: string, prices: number[]): Promise<Product[]> {
  const cards: Product[] = [];
  const rows: string[] = [];
  for (const price of prices) {
    const product = await createProduct(api, { product_name: uniqueName(prefix), quantity_on_hand: ON_HAND, cost: COST_CENTS });
    const scryfallId = randomUUID();
    expect((await api.put(`/api/products/${product.id}/market`, { data: { scryfall_id: scryfallId } })).status()).toBe(200);
    expect((await api.put(`/api/buy-settings/limits/${product.id}`, { data: { buy_limit: ON_HAND + 3 } })).status()).toBe(200);
    rows.push(`${scryfallId},${(price / 100).toFixed(2)}`);
    cards.push(product);
  }
  const feed = await api.post("/api/prices/feeds", { data: { name: uniqueName("Buylist feed"), format: "csv" } });
  expect(feed.status()).toBe(201);
  const { id } = (await feed.json()) as { id: number };
  const run = await api.post(`/api/prices/feeds/${id}/run`, {
    multipart: { file: { name: "prices.csv", mimeType: "text/csv", buffer: Buffer.from(`scryfall_id,price\n${rows.join("\n")}\n`) } },
  });
  expect(run.status()).toBe(200);
  expect(await run.json()).toMatchObject({ status: "done", matched: prices.length });
  return cards;
}

/** The page's whole text holds no stock count or cost of the cards. */
async function expectNoStockOrCost(page: Page) {
  // The DOM's text, what is hidden from sight (screen-reader text, the honeypot) included.
  const text = (await page.locator("body").textContent()) ?? "";
  expect(text).not.toContain(String(ON_HAND));
  expect(text).not.toContain((COST_CENTS / 100).toFixed(2));
  expect(text).not.toMatch(/on hand|in stock|cost/i);
}

test("a customer sends a list from the public buylist without signing in; staff find it in the Counter's drafts, received online", async ({
  page,
  browser,
}) => {
  const prefix = uniqueName("Buylist card");
  const [card] = await wantedCards(prefix, [1000]);
  if (!card) throw new Error("card not made");

  await page.goto("/buylist");
  await expect(page.getByRole("heading", { name: "Sell us your cards", level: 1 })).toBeVisible();
  // No sign-in screen and no session asked for.
  await expect(page.getByLabel("Password")).toHaveCount(0);
  await page.getByLabel("Search cards by name or set").fill(prefix);
  const row = page.getByTestId("buylist-card").filter({ hasText: card.product_name });
  await expect(row).toBeVisible();
  // The shop's default buy settings offer 50 % of $10.00 in cash and 65 % in credit.
  await expect(row).toContainText("Near Mint: $6.50 credit or $5.00 cash");
  await expect(row).toContainText("Up to 3 per list");
  await expectNoStockOrCost(page);

  await row.getByLabel("Quantity").fill("2");
  await row.getByRole("button", { name: `Add ${card.product_name} to my list` }).click();
  await expect(page.getByTestId("buylist-line")).toContainText(card.product_name);
  await expect(page.getByText("2 cards: $13.00 in store credit or $10.00 in cash")).toBeVisible();

  // Sent without a name or email: said by each field, nothing sent.
  await page.getByRole("button", { name: "Send my list" }).click();
  await expect(page.getByText("Name is required")).toBeVisible();
  await expect(page.getByLabel("Name", { exact: true })).toHaveAttribute("aria-invalid", "true");
  const customer = uniqueName("Robin Seller");
  const email = `robin.${customer.split("-").pop()}@example.com`;
  await page.getByLabel("Name", { exact: true }).fill(customer);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Send my list" }).click();
  const done = page.getByRole("heading", { name: "Thank you: we have your list" });
  await expect(done).toBeFocused();
  const reference = ((await page.getByText(/Your reference is #\d+/).textContent()) ?? "").match(/#(\d+)/)?.[1];
  expect(reference).toBeTruthy();
  await expectNoStockOrCost(page);

  // Staff at the counter: the list is an open draft, received online, with its card and who sent it.
  const staff = await browser.newPage();
  try {
    await signIn(staff, await createUser(api, "inventory"));
    await letLiveToastsPassClicks(staff);
    await staff.goto("/counter");
    const drafts = staff.getByRole("list", { name: "Open drafts" });
    const draft = drafts.getByRole("listitem").filter({ hasText: `Trade-in #${reference}` });
    await expect(draft).toContainText("Received online");
    await draft.getByRole("button", { name: `Resume trade-in #${reference}` }).click();
    await expect(staff.getByTestId("trade-in-line")).toContainText(card.product_name);
    await expect(staff.getByTestId("online-note")).toContainText(`From ${customer} <${email}>`);
  } finally {
    await staff.close();
  }
});

for (const theme of ["light", "dark"] as const) {
  test(`the public buylist on a phone: no axe violations in the ${theme} theme, a form's errors included`, async ({ page }, info) => {
    const prefix = uniqueName("Axe card");
    const [card] = await wantedCards(prefix, [500]);
    if (!card) throw new Error("card not made");
    await page.setViewportSize({ width: 390, height: 844 });
    await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
    await page.goto("/buylist");
    await page.getByLabel("Search cards by name or set").fill(prefix);
    await expect(page.getByTestId("buylist-card")).toHaveCount(1);
    await expect(page.getByText(/Loading/)).toHaveCount(0);
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    await page.getByRole("button", { name: `Add ${card.product_name} to my list` }).click();
    await page.getByRole("button", { name: "Send my list" }).click();
    await expect(page.getByText("Email is required")).toBeVisible();
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    await expectNoStockOrCost(page);
    await page.screenshot({ path: info.outputPath(`buylist-phone-${theme}.png`), fullPage: true });
  });
}

test("the Counter's Buy settings: a manager sets a card's buy limit and it is on the buylist; an inventory user sees them read-only; axe in light and dark", async ({
  page,
  browser,
}) => {
  const prefix = uniqueName("Limit card");
  const [card] = await wantedCards(prefix, [800]);
  if (!card) throw new Error("card not made");
  // No limit yet: not on the buylist.
  expect((await api.put(`/api/buy-settings/limits/${card.id}`, { data: { buy_limit: null } })).status()).toBe(200);
  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.goto("/counter");
  await page.getByRole("button", { name: "Buy settings" }).click();
  const dialog = page.getByRole("dialog", { name: "Buy settings" });
  await expect(dialog.getByLabel("Cash %", { exact: true })).toHaveValue(/\d+/);
  await expectNoAxeViolations(page);
  await dialog.getByLabel("Add a buy limit for a card").fill(card.product_name);
  await dialog.getByRole("button", { name: card.product_name }).click();
  await dialog.getByLabel(`Buy limit of ${card.product_name}`, { exact: true }).fill(String(ON_HAND + 2));
  await page.getByRole("button", { name: "Save buy settings" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByText("Buy settings saved")).toBeVisible();

  const shop = await browser.newPage();
  try {
    await shop.goto("/buylist");
    await shop.getByLabel("Search cards by name or set").fill(prefix);
    await expect(shop.getByTestId("buylist-card")).toHaveCount(1);
    await expect(shop.getByTestId("buylist-card").filter({ hasText: card.product_name })).toContainText("Up to 2 per list");
  } finally {
    await shop.close();
  }

  const staff = await browser.newPage();
  try {
    await staff.addInitScript(() => localStorage.setItem("blez-theme", "dark"));
    await signIn(staff, await createUser(api, "inventory"));
    await letLiveToastsPassClicks(staff);
    await staff.goto("/counter");
    await staff.getByRole("button", { name: "Buy settings" }).click();
    const readOnly = staff.getByRole("dialog", { name: "Buy settings" });
    await expect(readOnly.getByText("Only managers change these.", { exact: false })).toBeVisible();
    await expect(readOnly.getByLabel(`Buy limit of ${card.product_name}`, { exact: true })).toHaveValue(String(ON_HAND + 2));
    await expect(readOnly.getByLabel(`Buy limit of ${card.product_name}`, { exact: true })).toHaveAttribute("readonly", "");
    await expect(staff.getByRole("button", { name: "Save buy settings" })).toHaveCount(0);
    await expectNoAxeViolations(staff, { colours: true });
  } finally {
    await staff.close();
  }
});
