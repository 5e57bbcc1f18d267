import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import { adminApi, createProduct, createUser, signIn } from "./support/api";
import { E2E_ADMIN } from "./support/env";
import { expectNoAxeViolations } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function themeColor(page: Page) {
  return page.locator('meta[name="theme-color"]').getAttribute("content");
}

async function isDark(page: Page) {
  return page.evaluate(() => document.documentElement.classList.contains("dark"));
}

async function newSignedInPage(browser: Browser, user: { username: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, user);
  return { context, page };
}

test.describe("sign-in", () => {
  test("login errors: both fields required, wrong password, then success and logout", async ({ page }) => {
    const user = await createUser(api, "inventory");
    await page.goto("/");
    await expect(page.getByRole("heading", { name: "Blez Inventory" })).toBeVisible();

    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toHaveText("Please enter both username and password");

    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByRole("alert")).toHaveText("Invalid username or password");

    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByTestId("current-username")).toHaveText(user.username);

    await page.getByRole("button", { name: "Logout" }).click();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
    await page.reload();
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
  });
});

test.describe("views and navigation per role", () => {
  test("streamer: only the streamer view, no navigation", async ({ page }) => {
    const user = await createUser(api, "streamer");
    await signIn(page, user);
    await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
    await expect(page.getByText("Streamer", { exact: true })).toBeVisible();
    await expect(page.getByRole("navigation", { name: "Views" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Full Inventory" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Logout" })).toBeVisible();
  });

  test("inventory: inventory by default, streamer view, no user management", async ({ page }) => {
    const user = await createUser(api, "inventory");
    await signIn(page, user);
    const nav = page.getByRole("navigation", { name: "Views" });
    await expect(nav.getByRole("link", { name: "Full Inventory" })).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
    await expect(nav.getByRole("link", { name: "Manage Users" })).toHaveCount(0);
    await expect(nav.getByRole("link", { name: "Integrations" })).toHaveCount(0);
    await nav.getByRole("link", { name: "Streamer View" }).click();
    await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
    await expect(page.getByText("Inventory", { exact: true })).toBeVisible();
  });

  /** The views a manager and a super admin are offered, in order. */
  const EVERY_VIEW = [
    "Streamer View",
    "Full Inventory",
    "Counter",
    "Customers",
    "Stock take",
    "Reports",
    "Manage Users",
    "Orders",
    "Prices",
    "Integrations",
  ];

  test("manager and super admin: every view", async ({ page }) => {
    const manager = await createUser(api, "manager");
    await signIn(page, manager);
    const nav = page.getByRole("navigation", { name: "Views" });
    await expect(nav.getByRole("link")).toHaveText(EVERY_VIEW);
    await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
    await nav.getByRole("link", { name: "Manage Users" }).click();
    await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();
    await expect(page.getByText("Manager", { exact: true }).first()).toBeVisible();

    await page.getByRole("button", { name: "Logout" }).click();
    await page.getByLabel("Username").fill(E2E_ADMIN.username);
    await page.getByLabel("Password").fill(E2E_ADMIN.password);
    await page.getByRole("button", { name: "Login" }).click();
    await expect(page.getByText("Super Administrator")).toBeVisible();
    await expect(nav.getByRole("link")).toHaveText(EVERY_VIEW);
  });
});

test.describe("theme", () => {
  test("cycles light, dark, system; persists across reload; sets theme-color", async ({ page }) => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto("/");
    const toggle = page.getByRole("button", { name: /^Theme:/ });
    await expect(toggle).toBeVisible();
    // Start from light whatever the default was.
    while ((await toggle.getAttribute("data-theme-choice")) !== "light") await toggle.click();
    expect(await isDark(page)).toBe(false);
    expect(await themeColor(page)).toBe("#2563eb");

    await toggle.click();
    await expect(toggle).toHaveAttribute("data-theme-choice", "dark");
    expect(await isDark(page)).toBe(true);
    expect(await themeColor(page)).toBe("#1a1a1a");
    expect(await page.evaluate(() => localStorage.getItem("blez-theme"))).toBe("dark");

    // Dark before React renders: the class is there as soon as the document is parsed.
    await page.reload({ waitUntil: "domcontentloaded" });
    expect(await isDark(page)).toBe(true);
    expect(await themeColor(page)).toBe("#1a1a1a");

    await toggle.click();
    await expect(toggle).toHaveAttribute("data-theme-choice", "system");
    expect(await page.evaluate(() => localStorage.getItem("blez-theme"))).toBe("system");
    await expect.poll(() => isDark(page)).toBe(false);
    // System follows the browser's preference live.
    await page.emulateMedia({ colorScheme: "dark" });
    await expect.poll(() => isDark(page)).toBe(true);
    await expect.poll(() => themeColor(page)).toBe("#1a1a1a");

    await toggle.click();
    await expect(toggle).toHaveAttribute("data-theme-choice", "light");
    await expect.poll(() => isDark(page)).toBe(false);
  });
});

test.describe("live", () => {
  test("presence count and online users dropdown with two users; streamers get no dropdown", async ({ browser }) => {
    const manager = await createUser(api, "manager");
    const streamer = await createUser(api, "streamer");
    const a = await newSignedInPage(browser, manager);
    const b = await newSignedInPage(browser, streamer);
    try {
      await expect(a.page.getByTestId("live-state")).toHaveText("Live");
      await expect(b.page.getByTestId("live-state")).toHaveText("Live");
      await expect(a.page.getByTestId("online-count")).not.toHaveText("1");
      const count = Number(await a.page.getByTestId("online-count").textContent());
      expect(count).toBeGreaterThanOrEqual(2);

      await a.page.getByRole("button", { name: /online\. Show online users/ }).click();
      const list = a.page.getByTestId("online-users");
      await expect(list.getByText(manager.username)).toBeVisible();
      await expect(list.getByText(streamer.username)).toBeVisible();
      await expect(list.locator("li", { hasText: streamer.username })).toContainText("Streamer");

      // The streamer sees the count, but no dropdown of who is online.
      await expect(b.page.getByTestId("online-count")).not.toHaveText("1");
      await expect(b.page.getByRole("button", { name: /Show online users/ })).toHaveCount(0);

      // Signing out closes the connection: the streamer leaves the other side's list.
      await b.page.getByRole("button", { name: "Logout" }).click();
      await expect(a.page.getByTestId("online-users").getByText(streamer.username)).toHaveCount(0);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  test("a change by another user shows as a toast and on screen; own changes give no live toast", async ({ browser }) => {
    const watcher = await createUser(api, "inventory");
    const seller = await createUser(api, "streamer");
    const product = await createProduct(api, { quantity_on_hand: 10 });
    const a = await newSignedInPage(browser, watcher);
    const b = await newSignedInPage(browser, seller);
    try {
      // The watcher follows the product in the streamer view.
      await a.page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Streamer View" }).click();
      await a.page.getByRole("button", { name: "Scan Barcode" }).click();
      await a.page.getByLabel("Enter barcode manually").fill(product.barcode);
      await a.page.getByRole("button", { name: "Look Up Product" }).click();
      await expect(a.page.getByTestId("current-stock")).toHaveText("10");
      await expect(a.page.getByTestId("live-state")).toHaveText("Live");
      await expect(b.page.getByTestId("live-state")).toHaveText("Live");

      await b.page.getByRole("button", { name: "Scan Barcode" }).click();
      await b.page.getByLabel("Enter barcode manually").fill(product.barcode);
      await b.page.getByRole("button", { name: "Look Up Product" }).click();
      await b.page.getByRole("button", { name: "SOLD (-1)" }).click();
      await expect(b.page.getByTestId("current-stock")).toHaveText("9");

      const liveA = a.page.getByRole("region", { name: /Live updates/ });
      await expect(liveA.getByText(`${seller.username} sold 1 x ${product.product_name}, 9 left`)).toBeVisible();
      await expect(a.page.getByTestId("current-stock")).toHaveText("9");
      // The seller's own change is not announced to the seller.
      await expect(b.page.getByRole("region", { name: /Live updates/ }).getByText(`${seller.username} sold`)).toHaveCount(0);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});

test.describe("session ended elsewhere", () => {
  test("disabling or resetting the password of a signed-in user signs them out at once", async ({ page, browser }) => {
    const user = await createUser(api, "streamer");
    await signIn(page, user);
    await expect(page.getByTestId("live-state")).toHaveText("Live");
    await api.put(`/api/auth/users/${user.id}/status`, { data: { is_active: false } });
    await expect(page.getByRole("button", { name: "Login" })).toBeVisible();

    const other = await createUser(api, "inventory");
    const b = await newSignedInPage(browser, other);
    try {
      await expect(b.page.getByTestId("live-state")).toHaveText("Live");
      await api.put(`/api/auth/users/${other.id}/password`, { data: { newPassword: "a-new-password-1" } });
      await expect(b.page.getByRole("button", { name: "Login" })).toBeVisible();
    } finally {
      await b.context.close();
    }
  });
});

test.describe("accessibility and layout", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`login and streamer views have no axe violations (${theme})`, async ({ page }, testInfo) => {
      await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
      await page.goto("/");
      await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
      expect(await isDark(page)).toBe(theme === "dark");
      await expectNoAxeViolations(page, { colours: theme === "dark" });

      const user = await createUser(api, "streamer");
      const product = await createProduct(api, { quantity_on_hand: 3 });
      await signIn(page, user);
      await page.getByRole("button", { name: "Scan Barcode" }).click();
      await page.getByLabel("Enter barcode manually").fill(product.barcode);
      await page.getByRole("button", { name: "Look Up Product" }).click();
      await expect(page.getByTestId("low-stock")).toBeVisible();
      await expectNoAxeViolations(page, { colours: theme === "dark" });

      await page.getByRole("button", { name: "Scan Barcode" }).click();
      await expect(page.getByRole("button", { name: "Look Up Product" })).toBeVisible();
      await expectNoAxeViolations(page, { colours: theme === "dark" });
      await page.getByRole("button", { name: "Close", exact: true }).click();

      await page.screenshot({ path: testInfo.outputPath(`streamer-${theme}-desktop.png`), fullPage: true });
    });
  }

  for (const size of [
    { name: "phone", width: 390, height: 844 },
    { name: "desktop", width: 1280, height: 800 },
  ]) {
    test(`fits a ${size.name} (${size.width}x${size.height})`, async ({ page }, testInfo) => {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.goto("/");
      await expect(page.getByRole("button", { name: "Login" })).toBeVisible();
      await page.screenshot({ path: testInfo.outputPath(`login-${size.name}.png`) });

      const manager = await createUser(api, "manager");
      const product = await createProduct(api, { quantity_on_hand: 12 });
      await signIn(page, manager);
      await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Streamer View" }).click();
      await page.getByRole("button", { name: "Scan Barcode" }).click();
      await page.getByLabel("Enter barcode manually").fill(product.barcode);
      await page.getByRole("button", { name: "Look Up Product" }).click();
      await expect(page.getByRole("button", { name: "SOLD (-1)" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Logout" })).toBeInViewport();
      // Nothing wider than the screen.
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: testInfo.outputPath(`streamer-${size.name}.png`), fullPage: true });
    });
  }
});
