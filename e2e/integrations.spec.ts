import { type APIRequestContext, expect, request, test } from "@playwright/test";
import type { CreatedToken } from "../src/contract/tokens";
import { adminApi, createUser, signIn, uniqueName, userApi } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** GET path with `Authorization: Bearer <secret>` and no cookie: the status. */
async function withToken(secret: string, path: string): Promise<number> {
  const client = await request.newContext({ baseURL: E2E_BASE_URL, extraHTTPHeaders: { authorization: `Bearer ${secret}` } });
  try {
    return (await client.get(path)).status();
  } finally {
    await client.dispose();
  }
}

test("a manager creates a token, sees its secret once, and revokes it", async ({ page }) => {
  const manager = await createUser(api, "manager");
  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "API tokens" })).toBeVisible();
  await expectNoAxeViolations(page);

  const form = page.getByRole("form", { name: "Create an API token" });
  // Name and scopes are required.
  await form.getByRole("button", { name: "Create token" }).click();
  await expect(form.getByText("Token name is required")).toBeVisible();
  await expect(form.getByText("Choose at least one scope")).toBeVisible();

  const name = uniqueName("Web store sync");
  await form.getByLabel("Token name").fill(name);
  await form.getByRole("checkbox", { name: /products:read/ }).check();
  // Keyboard: the scope below is ticked with the space bar, the form sent with Enter.
  await expect(form.getByLabel("Order channels (optional)")).toHaveCount(0);
  await form.getByRole("checkbox", { name: /orders:write/ }).focus();
  await page.keyboard.press("Space");
  // orders:write chosen: the token may be limited to some channels.
  await form.getByLabel("Order channels (optional)").fill("ebay, web");
  await form.getByLabel("Token name").press("Enter");

  const secretBox = page.getByTestId("token-secret");
  await expect(secretBox).toBeVisible();
  const secret = await secretBox.inputValue();
  expect(secret).toMatch(/^blez_[A-Za-z0-9_-]{43}$/);
  await expect(page.getByText("it is shown only once")).toBeVisible();
  await expect(page.getByRole("button", { name: "Copy" })).toBeVisible();
  await expectNoAxeViolations(page);

  const card = page.getByTestId("token-card").filter({ has: page.getByRole("heading", { name }) });
  await expect(card).toContainText(secret.slice(0, 11));
  await expect(card).toContainText("products:read");
  await expect(card).toContainText("orders:write");
  await expect(card.getByTestId("token-state")).toHaveText("Active");
  await expect(card).toContainText(`${manager.username} (Manager)`);
  await expect(card).toContainText("ebay, web");
  await expect(card).toContainText("Never");
  expect(await withToken(secret, "/api/products")).toBe(200);

  // Once dismissed, the secret is nowhere: not on the page, not after a reload, not in the list.
  await page.getByRole("button", { name: "Done" }).click();
  await expect(secretBox).toHaveCount(0);
  await page.reload();
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  await expect(card).toBeVisible();
  expect(await page.content()).not.toContain(secret);
  await expect(card).not.toContainText("Never");

  // Revoke, with confirmation: Escape keeps it, the dialog's button revokes it.
  await card.getByRole("button", { name: `Revoke ${name}` }).click();
  const dialog = page.getByRole("dialog", { name: `Revoke token "${name}"?` });
  await expect(dialog).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  expect(await withToken(secret, "/api/products")).toBe(200);
  await card.getByRole("button", { name: `Revoke ${name}` }).click();
  await dialog.getByRole("button", { name: "Revoke token" }).click();
  await expect(card.getByRole("term").filter({ hasText: "Revoked" })).toBeVisible();
  await expect(card.getByRole("button", { name: `Revoke ${name}` })).toHaveCount(0);
  expect(await withToken(secret, "/api/products")).toBe(401);
});

test("a token whose maker is disabled is refused at once and shown as such; enabled again, it works", async ({ page }) => {
  const maker = await createUser(api, "manager");
  const makerApi = await userApi(maker);
  const name = uniqueName("Shop script");
  let secret: string;
  try {
    const created = await makerApi.post("/api/tokens", { data: { name, scopes: ["products:read"] } });
    expect(created.status()).toBe(201);
    secret = ((await created.json()) as CreatedToken).secret;
  } finally {
    await makerApi.dispose();
  }
  expect(await withToken(secret, "/api/products")).toBe(200);
  expect((await api.put(`/api/auth/users/${maker.id}/status`, { data: { is_active: false } })).status()).toBe(200);
  expect(await withToken(secret, "/api/products")).toBe(401);

  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  const card = page.getByTestId("token-card").filter({ has: page.getByRole("heading", { name }) });
  await expect(card.getByTestId("token-state")).toHaveText("Maker disabled");
  await expect(card).toContainText(`${maker.username} (Manager, disabled)`);
  await expect(card).toContainText("the token is refused until it is enabled again");
  await expectNoAxeViolations(page);

  expect((await api.put(`/api/auth/users/${maker.id}/status`, { data: { is_active: true } })).status()).toBe(200);
  expect(await withToken(secret, "/api/products")).toBe(200);
  await page.reload();
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  await expect(card.getByTestId("token-state")).toHaveText("Active");
});

test("on a phone the Integrations screen fits and stays accessible; inventory users do not see it", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signIn(page, await createUser(api, "super_admin"));
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  await expect(page.getByRole("form", { name: "Create an API token" })).toBeVisible();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  await expectNoAxeViolations(page);

  const other = await page.context().browser()?.newContext();
  if (!other) throw new Error("no browser");
  const inventoryPage = await other.newPage();
  try {
    await signIn(inventoryPage, await createUser(api, "inventory"));
    await expect(inventoryPage.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
    const nav = inventoryPage.getByRole("navigation", { name: "Views" });
    await expect(nav.getByRole("link", { name: "Integrations" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Orders" })).toHaveCount(0);
  } finally {
    await other.close();
  }
});
