import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { SESSION_ENDED } from "../src/client/features/auth/messages";
import type { QuantityAuditEntry } from "../src/contract/audit";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, type TestUser } from "./support/api";
import { letLiveToastsPassClicks, preferCardView, productCard } from "./support/page";

/**
 * One quantity path (every stock change through the product store's queue, one retry policy) and
 * one reaction to a session that ended, seen from the browser. Faults come from outside: a 500 or
 * a lost connection on the quantity endpoint (page.route), the browser offline, the session
 * signed out from another browser or the account disabled by an admin.
 */
let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

const QUANTITY_FAILED = "Failed to update quantity";
const search = (page: Page) => page.getByRole("searchbox", { name: "Search products" });
const quantityOf = (card: Locator) => card.getByLabel("Quantity on hand");

async function openInventory(page: Page, user: TestUser) {
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
}

async function serverProduct(barcode: string): Promise<Product> {
  return (await (await api.get(`/api/products/barcode/${barcode}`)).json()) as Product;
}

async function adjustments(id: number): Promise<Array<[number, string | null]>> {
  const audit = (await (await api.get(`/api/audit/quantity/${id}`)).json()) as QuantityAuditEntry[];
  return audit.filter((e) => e.transaction_type === "adjustment").map((e) => [e.quantity_change, e.notes]);
}

test.describe("one quantity path", () => {
  // The offline test reloads the app without a network: its service worker keeps it (the other files block it).
  test.use({ serviceWorkers: "allow" });
  test("a card's change answered 500 says 'Failed to update quantity' at once and the stock goes back; so does Adjust Stock", async ({
    page,
  }) => {
    const product = await createProduct(api, { quantity_on_hand: 10 });
    await openInventory(page, await createUser(api, "manager"));
    await search(page).fill(product.barcode);
    const card = productCard(page, product);
    await expect(quantityOf(card)).toHaveText("10");

    let sent = 0;
    await page.route(`**/api/products/${product.id}/quantity`, (route) => {
      sent += 1;
      return route.fulfill({ status: 500, json: { error: "Internal server error" } });
    });
    await card.getByRole("button", { name: /Increase quantity/ }).click();
    // At once: well before the 30 s a change used to be retried for.
    await expect(page.getByText(`${QUANTITY_FAILED}: Internal server error`)).toBeVisible({ timeout: 5_000 });
    await expect(quantityOf(card)).toHaveText("10");
    await expect(card.getByTestId("pending-taps")).toHaveCount(0);
    // Refused, not retried.
    await page.waitForTimeout(1_500);
    expect(sent).toBe(1);

    await card.getByRole("button", { name: `Adjust stock of ${product.product_name}` }).click();
    const dialog = page.getByRole("dialog", { name: "Adjust Stock" });
    await dialog.getByLabel("Amount").fill("3");
    await dialog.getByRole("button", { name: "Save Adjustment" }).click();
    await expect(dialog.getByRole("alert")).toHaveText(`${QUANTITY_FAILED}: Internal server error`, { timeout: 5_000 });
    await expect(dialog.getByTestId("adjust-stock-now")).toHaveText("10");
    expect(sent).toBe(2);

    await page.unroute(`**/api/products/${product.id}/quantity`);
    expect((await serverProduct(product.barcode)).quantity_on_hand).toBe(10);
  });

  test("a card's +/- made offline shows pending, survives a reload and is applied once", async ({ page, context }) => {
    test.slow();
    const product = await createProduct(api, { quantity_on_hand: 10 });
    await openInventory(page, await createUser(api, "manager"));
    // The service worker keeps the app: it opens again without a network.
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 30_000 });
    await search(page).fill(product.barcode);
    const card = productCard(page, product);
    await expect(quantityOf(card)).toHaveText("10");

    // The quantity calls find no server from here until it is let through below: offline
    // emulation may miss a request the page's service worker passes on (once the server had one of
    // the two taps while the page was offline). On the context, not the page: a page's routes miss
    // what its service worker fetches.
    const quantityUrl = `**/api/products/${product.id}/quantity`;
    await context.route(quantityUrl, (route) => route.abort("internetdisconnected"));
    await context.setOffline(true);
    const plus = card.getByRole("button", { name: /Increase quantity/ });
    await plus.click();
    await plus.click();
    await expect(quantityOf(card)).toHaveText("12");
    await expect(card.getByTestId("pending-taps")).toHaveText("2 pending");
    await expect(page.getByTestId("waiting-taps-count")).toHaveText("2");
    await page.waitForTimeout(500); // the kept products are written a moment after a change

    // A reload while still offline: the same user, the changes still waiting.
    await page.reload();
    await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
    await expect(page.getByTestId("waiting-taps-count")).toHaveText("2");

    // Online again, but the quantity calls still find no server: the card shows them pending.
    await context.setOffline(false);
    await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
    await search(page).fill(product.barcode);
    await expect(quantityOf(card)).toHaveText("12", { timeout: 60_000 });
    await expect(card.getByTestId("pending-taps")).toHaveText("2 pending");
    expect((await serverProduct(product.barcode)).quantity_on_hand).toBe(10);

    // The server is reachable: both are applied, each once.
    await context.unroute(quantityUrl);
    await expect(card.getByTestId("pending-taps")).toHaveCount(0, { timeout: 60_000 });
    await expect(page.getByTestId("waiting-taps")).toHaveCount(0);
    await expect(quantityOf(card)).toHaveText("12");
    expect((await serverProduct(product.barcode)).quantity_on_hand).toBe(12);
    expect(await adjustments(product.id)).toEqual([
      [1, "Manual adjustment"],
      [1, "Manual adjustment"],
    ]);
  });
});

/** Three pages of one browser (one session): the inventory, the streamer and the users screens. */
async function threeScreens(browser: Browser, user: TestUser) {
  const context = await browser.newContext();
  const login = await context.request.post("/api/auth/login", { data: { username: user.username, password: user.password } });
  expect(login.ok()).toBe(true);
  const open = async (view: string | null, heading: string) => {
    const page = await context.newPage();
    await page.goto("/");
    await letLiveToastsPassClicks(page);
    if (view) await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: view }).click();
    await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    await expect(page.getByTestId("live-state")).toHaveText("Live");
    return page;
  };
  const inventory = await open(null, "Inventory Management");
  const streamer = await open("Streamer View", "Streamer Interface");
  const users = await open("Manage Users", "User Management");
  return { context, inventory, streamer, users };
}

async function expectSignInScreen(page: Page) {
  await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  await expect(page.getByTestId("session-ended")).toHaveText(SESSION_ENDED);
  await expect(page.getByTestId("current-username")).toHaveCount(0);
}

test.describe("one reaction to a session that ended", () => {
  test("signed out elsewhere: inventory, streamer and users go to sign-in alike; a tap waiting keeps for the same user", async ({
    browser,
  }) => {
    test.slow();
    const user = await createUser(api, "manager");
    const product = await createProduct(api, { quantity_on_hand: 10 });
    const { context, inventory, streamer, users } = await threeScreens(browser, user);
    try {
      // A tap that cannot reach the server waits on the streamer screen.
      const quantityUrl = `**/api/products/${product.id}/quantity`;
      await streamer.route(quantityUrl, (route) => route.abort("internetdisconnected"));
      await streamer.getByRole("button", { name: "Scan Barcode" }).click();
      await streamer.getByLabel("Enter barcode manually").fill(product.barcode);
      await streamer.getByRole("button", { name: "Look Up Product" }).click();
      await expect(streamer.getByTestId("current-stock")).toHaveText("10");
      await streamer.getByRole("button", { name: "SOLD (-1)" }).click();
      await expect(streamer.getByTestId("pending-taps")).toHaveText("1 pending");

      // The same session signed out from another browser (its cookie).
      const elsewhere = await browser.newContext({ storageState: await context.storageState() });
      try {
        expect((await elsewhere.request.post("/api/auth/logout")).ok()).toBe(true);
      } finally {
        await elsewhere.close();
      }
      for (const page of [inventory, streamer, users]) await expectSignInScreen(page);

      // The same user signs in again: the tap kept for them is sent, and applied once.
      await streamer.unroute(quantityUrl);
      await streamer.getByLabel("Username").fill(user.username);
      await streamer.getByLabel("Password").fill(user.password);
      await streamer.getByRole("button", { name: "Login" }).click();
      await expect(streamer.getByTestId("current-username")).toHaveText(user.username);
      await expect(streamer.getByTestId("session-ended")).toHaveCount(0);
      await expect.poll(async () => (await serverProduct(product.barcode)).quantity_on_hand, { timeout: 30_000 }).toBe(9);
      await expect(streamer.getByTestId("waiting-taps")).toHaveCount(0, { timeout: 30_000 });
      expect(await adjustments(product.id)).toEqual([[-1, "Streamer adjustment"]]);
    } finally {
      await context.close();
    }
  });

  test("disabled by an admin: inventory, streamer and users go to sign-in alike", async ({ browser }) => {
    const user = await createUser(api, "manager");
    const { context, inventory, streamer, users } = await threeScreens(browser, user);
    try {
      expect((await api.put(`/api/auth/users/${user.id}/status`, { data: { is_active: false } })).ok()).toBe(true);
      for (const page of [inventory, streamer, users]) await expectSignInScreen(page);
    } finally {
      await context.close();
    }
  });
});
