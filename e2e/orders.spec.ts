import { type APIRequestContext, type Browser, expect, type Page, request, test } from "@playwright/test";
import type { Order } from "../src/contract/orders";
import type { CreatedToken } from "../src/contract/tokens";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { expectNoAxeViolations, letLiveToastsPassClicks, preferCardView, productCard } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** An inventory screen in a browser context of its own, searching for `text`. */
async function openInventory(browser: Browser, text: string): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await preferCardView(page);
  await signIn(page, await createUser(api, "inventory"));
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  await page.getByRole("searchbox", { name: "Search products" }).fill(text);
  return page;
}

test("an order placed with an API token appears in the Orders screen and its stock change on an open inventory, live; cancelling restocks", async ({
  page,
  browser,
}) => {
  const name = uniqueName("Charizard ex");
  const product = await createProduct(api, { product_name: name, quantity_on_hand: 10, price: 4999 });
  const { secret } = (await (
    await api.post("/api/tokens", { data: { name: uniqueName("eBay"), scopes: ["orders:write"] } })
  ).json()) as CreatedToken;
  const channel = uniqueName("ebay");

  const inventory = await openInventory(browser, name);
  const stock = productCard(inventory, product).getByLabel("Quantity on hand");
  await expect(stock).toHaveText("10");

  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await page.getByLabel("Channel").fill(channel);
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  // The socket is up before the order is placed (the Live badge).
  await expect(page.getByTestId("live-state")).toHaveText("Live");

  const integration = await request.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
  try {
    const placed = await integration.post("/api/orders", {
      data: { channel, external_id: "A-1001", lines: [{ barcode: product.barcode, quantity: 2, unit_price: 4500 }] },
    });
    expect(placed.status()).toBe(201);
    expect(((await placed.json()) as { order: Order }).order.total).toBe(9000);
  } finally {
    await integration.dispose();
  }

  const card = page.getByTestId("order-card").filter({ hasText: "A-1001" });
  await expect(card).toBeVisible();
  await expect(card).toContainText(`2 × ${name}`);
  await expect(card).toContainText("$90.00");
  await expect(card).toContainText("Completed");
  await expect(card).toContainText("token:eBay");
  await expect(stock).toHaveText("8");
  await expectNoAxeViolations(page);

  // Filters: by status.
  await page.getByLabel("Status").selectOption("cancelled");
  await expect(card).toHaveCount(0);
  await page.getByLabel("Status").selectOption("");
  await expect(card).toBeVisible();

  await card.getByRole("button", { name: `Cancel order ${channel} A-1001` }).click();
  const dialog = page.getByRole("dialog", { name: `Cancel order ${channel} A-1001?` });
  await dialog.getByRole("button", { name: "Cancel order" }).click();
  await expect(card).toContainText("Cancelled");
  await expect(stock).toHaveText("10");
  await inventory.context().close();
});

test("the Orders screen on a phone: no sideways scrolling, accessible", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const product = await createProduct(api, { quantity_on_hand: 5 });
  const channel = uniqueName("counter");
  const res = await api.post("/api/orders", {
    data: { channel, external_id: uniqueName("receipt"), lines: [{ product_id: product.id, quantity: 1 }], note: "Paid cash" },
  });
  expect(res.status()).toBe(201);
  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Orders" }).click();
  await page.getByLabel("Channel").fill(channel);
  await expect(page.getByTestId("order-card")).toHaveCount(1);
  await expect(page.getByTestId("order-card")).toContainText("Total: not given");
  // Days are the browser's days: today holds the order, yesterday does not.
  const day = (offset: number) => {
    const d = new Date();
    d.setDate(d.getDate() + offset);
    return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, "0")}-${String(d.getDate()).padStart(2, "0")}`;
  };
  await page.getByLabel("From", { exact: true }).fill(day(0));
  await page.getByLabel("To", { exact: true }).fill(day(0));
  await expect(page.getByTestId("order-card")).toHaveCount(1);
  await page.getByLabel("From", { exact: true }).fill(day(-1));
  await page.getByLabel("To", { exact: true }).fill(day(-1));
  await expect(page.getByText("No orders match these filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await page.getByLabel("Channel").fill(channel);
  await expect(page.getByTestId("order-card")).toHaveCount(1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);
});
