import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName, userApi } from "./support/api";
import { letLiveToastsPassClicks, preferCardView, productCard } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** Another signed-in user, making changes through the API. */
async function otherUser(): Promise<APIRequestContext> {
  return userApi(await createUser(api, "inventory"));
}

async function serverProduct(id: number): Promise<Product> {
  const all = (await (await api.get("/api/products")).json()) as Product[];
  const found = all.find((p) => p.id === id);
  if (!found) throw new Error(`product ${id} not found`);
  return found;
}

/** A request for the whole catalogue (GET /api/products without ?since or ?limit). */
const isWholeList = (url: URL) => url.pathname === "/api/products" && !url.searchParams.has("since") && !url.searchParams.has("limit");

/** Counts the page's downloads of the whole catalogue. */
function countListDownloads(page: Page): () => number {
  let count = 0;
  page.on("request", (req) => {
    if (req.method() === "GET" && isWholeList(new URL(req.url()))) count += 1;
  });
  return () => count;
}

async function openInventory(page: Page) {
  await preferCardView(page);
  await signIn(page, await createUser(api, "inventory"));
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  // The shared test server holds every test's products: the first load may take a while.
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
}

const search = (page: Page) => page.getByRole("searchbox", { name: "Search products" });
const quantityOf = (page: Page, p: Product) => productCard(page, p).getByLabel("Quantity on hand");

test("20 live changes of other products download nothing: the open inventory shows the new stock", async ({ page }) => {
  const tag = uniqueName("live");
  const products: Product[] = [];
  for (let i = 0; i < 20; i++) products.push(await createProduct(api, { product_name: `${tag} ${i}`, quantity_on_hand: 50 }));
  const listDownloads = countListDownloads(page);
  // Tall enough for the 20 cards at once: the grid renders only the cards in view and a row beyond.
  await page.setViewportSize({ width: 1280, height: 2000 });
  await openInventory(page);
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  await search(page).fill(tag);
  await expect(page.getByTestId("results-summary")).toContainText("Showing 20 of");
  expect(listDownloads()).toBe(1);

  const other = await otherUser();
  try {
    for (const [i, p] of products.entries()) {
      const res = await other.put(`/api/products/${p.id}/quantity`, { data: { quantity_change: -(i + 1), reason: "Manual adjustment" } });
      expect(res.status()).toBe(200);
    }
  } finally {
    await other.dispose();
  }
  for (const [i, p] of products.entries()) {
    await productCard(page, p).scrollIntoViewIfNeeded();
    await expect(quantityOf(page, p)).toHaveText(String(50 - (i + 1)));
  }
  expect(listDownloads()).toBe(1);
});

test("an edit of the vendor keeps the stock another user sold meanwhile", async ({ page }) => {
  const product = await createProduct(api, { product_name: uniqueName("Merge"), vendor: "Panini", quantity_on_hand: 10 });
  const listDownloads = countListDownloads(page);
  await openInventory(page);
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  await search(page).fill(product.barcode);
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog.getByLabel("Quantity")).toHaveValue("10");

  const other = await otherUser();
  try {
    const sold = await other.put(`/api/products/${product.id}/quantity`, { data: { quantity_change: -2, reason: "Streamer adjustment" } });
    expect(sold.status()).toBe(200);
  } finally {
    await other.dispose();
  }
  // The untouched quantity follows the live change; only the vendor is sent.
  await expect(dialog.getByLabel("Quantity")).toHaveValue("8");
  await dialog.getByLabel("Vendor *").fill("Panini America");
  const saved = page.waitForRequest((req) => req.method() === "PUT" && req.url().endsWith(`/api/products/${product.id}`));
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  expect((await saved).postDataJSON()).toEqual({ vendor: "Panini America", version: product.version });
  await expect(dialog).toHaveCount(0);
  await expect(productCard(page, product)).toContainText("Panini America");
  await expect(quantityOf(page, product)).toHaveText("8");
  expect(await serverProduct(product.id)).toMatchObject({ vendor: "Panini America", quantity_on_hand: 8 });
  expect(listDownloads()).toBe(1);
});

test("a SOLD tap on the streamer view shows 10 then 9, once, whichever of its event and its answer comes first", async ({ page }) => {
  const listDownloads = countListDownloads(page);
  await preferCardView(page);
  await signIn(page, await createUser(api, "streamer"));
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  const product = await createProduct(api, { quantity_on_hand: 10 });
  await page.getByRole("button", { name: "Scan Barcode" }).click();
  await page.getByLabel("Enter barcode manually").fill(product.barcode);
  await page.getByRole("button", { name: "Look Up Product" }).click();
  const stock = page.getByTestId("current-stock");
  await expect(stock).toHaveText("10");

  // Every value the stock shows, as the page renders it.
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="current-stock"]');
    const seen = [el?.textContent ?? ""];
    (window as unknown as { shownStock: string[] }).shownStock = seen;
    if (el)
      new MutationObserver(() => seen.push(el.textContent ?? "")).observe(el, { childList: true, characterData: true, subtree: true });
  });
  // Hold the answer back, so the tap's own live event arrives first.
  let answered = false;
  await page.route(`**/api/products/${product.id}/quantity`, async (route) => {
    const response = await route.fetch();
    await new Promise((r) => setTimeout(r, 1500));
    answered = true;
    await route.fulfill({ response });
  });

  await page.getByRole("button", { name: "SOLD (-1)" }).click();
  await expect(stock).toHaveText("9");
  await expect.poll(() => answered).toBe(true);
  await expect.poll(async () => (await serverProduct(product.id)).quantity_on_hand).toBe(9);
  await expect(page.getByText(`Sold 1: ${product.product_name} (9 left)`)).toBeVisible();
  await page.waitForTimeout(500);
  const shown = await page.evaluate(() => (window as unknown as { shownStock: string[] }).shownStock);
  expect(shown.filter((v, i) => v !== shown[i - 1])).toEqual(["10", "9"]);
  expect(listDownloads()).toBe(0);
});

test("a returning user's catalogue is asked for before the app's code runs, once, and shows", async ({ page }) => {
  const product = await createProduct(api, { product_name: uniqueName("early") });
  const listDownloads = countListDownloads(page);
  await openInventory(page);
  expect(listDownloads()).toBe(1);
  // Signed in, this browser knows the user: a reload asks for the catalogue from the page's head.
  await page.reload();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  await search(page).fill(product.barcode);
  await expect(productCard(page, product)).toBeVisible();
  expect(listDownloads()).toBe(2);
  const started = await page.evaluate(() => {
    const entries = performance.getEntriesByType("resource") as PerformanceResourceTiming[];
    const at = (path: string) => entries.find((e) => new URL(e.name).pathname === path)?.startTime ?? Number.NaN;
    // The first page's request and the whole list's both (the first page is asked for first).
    return { catalogue: at("/api/products"), sessionCheck: at("/api/auth/me") };
  });
  expect(started.catalogue).toBeLessThan(started.sessionCheck);
});

test("a returning user's inventory code is asked for from the page's head, before the app's own code", async ({ page }) => {
  await openInventory(page);
  await page.reload();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  // The inventory screen's chunk has one preload link: the head script's, placed before the
  // entry's script (Vite's own, had the app made it, would come after it).
  const linksBeforeEntry = await page.evaluate(() => {
    const entry = document.querySelector('script[type="module"][src]');
    return [...document.querySelectorAll('link[rel="modulepreload"]')]
      .filter((link) => link.getAttribute("href")?.includes("inventory-view"))
      .map((link) => entry !== null && (link.compareDocumentPosition(entry) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0);
  });
  expect(linksBeforeEntry).toEqual([true]);
});

test("the catalogue's first page shows while the whole list downloads, never as a count or a search result, and the list replaces it", async ({
  page,
}) => {
  const product = await createProduct(api, { product_name: uniqueName("first page") });
  await openInventory(page);
  // The whole list is held back after the reload (the first page is not): what shows meanwhile is the first page.
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(isWholeList, async (route) => {
    await released;
    await route.continue();
  });
  await page.reload();
  const summary = page.getByTestId("results-summary");
  await expect(productCard(page, product)).toBeVisible();
  await expect(summary).toContainText("Loading products...");
  // A search while only the first page is here shows no result made from it.
  await search(page).fill(product.barcode);
  await expect(page.getByTestId("product-card")).toHaveCount(0);
  await expect(summary).toContainText("Loading products...");
  await search(page).fill("");
  await expect(productCard(page, product)).toBeVisible();
  // Someone typing as the list replaces the page types on: the search box stays, focused.
  await search(page).fill(product.barcode);
  release();
  await expect(summary).toContainText(/^Showing 1 of [\d,]+ products/, { timeout: 60_000 });
  await expect(productCard(page, product)).toBeVisible();
  await expect(search(page)).toBeFocused();
  await expect(search(page)).toHaveValue(product.barcode);
});
