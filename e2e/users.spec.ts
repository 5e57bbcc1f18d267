import { type APIRequestContext, type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { ROLE_LABELS, type Role } from "../src/contract/permissions";
import { MESSAGES } from "../src/contract/rules";
import { adminApi, createUser, signIn, type TestUser, uniqueName } from "./support/api";
import { E2E_ADMIN } from "./support/env";
import { expectNoAxeViolations } from "./support/page";

const PROTECTED_NOTE = "This account is protected and can only be modified by other super administrators.";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

const ADMIN = { username: E2E_ADMIN.username, password: E2E_ADMIN.password };

async function openUsers(page: Page) {
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Manage Users" }).click();
  await expect(page.getByRole("heading", { name: "User Management", level: 1 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Users" })).toBeVisible();
}

function card(page: Page, username: string): Locator {
  return page.getByRole("article", { name: username, exact: true });
}

/** Signs in through the login screen of a fresh browser context (a second person at another machine). */
async function loginInNewContext(browser: Browser, user: { username: string; password: string }) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto("/");
  await loginForm(page, user);
  return { context, page };
}

async function loginForm(page: Page, user: { username: string; password: string }) {
  await page.getByLabel("Username").fill(user.username);
  await page.getByLabel("Password").fill(user.password);
  await page.getByRole("button", { name: "Login" }).click();
}

async function openCreateDialog(page: Page) {
  await page.getByRole("button", { name: "Create New User" }).click();
  const dialog = page.getByRole("dialog", { name: "Create New User" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function fillCreate(dialog: Locator, values: { username: string; password: string; confirm?: string; role?: Role }) {
  await dialog.getByLabel("Username").fill(values.username);
  await dialog.getByLabel("Password", { exact: true }).fill(values.password);
  await dialog.getByLabel("Confirm Password").fill(values.confirm ?? values.password);
  if (values.role) await dialog.getByLabel("Role").selectOption(values.role);
}

function shortDate(iso: string): string {
  return new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric" }).format(new Date(iso));
}

test.describe("create user dialog", () => {
  test("shows each validation message, clears it on edit, and shows the server's refusal of a taken name", async ({ page }) => {
    const manager = await createUser(api, "manager");
    const taken = await createUser(api, "streamer");
    await signIn(page, manager);
    await openUsers(page);
    const dialog = await openCreateDialog(page);
    const alert = dialog.getByRole("alert");
    const submit = dialog.getByRole("button", { name: "Create User" });

    await submit.click();
    await expect(alert).toHaveText(MESSAGES.userRequired);
    await expect(dialog.getByLabel("Username")).toBeFocused();
    await dialog.getByLabel("Username").fill("someone");
    await expect(alert).toHaveCount(0);

    await submit.click();
    await expect(alert).toHaveText("Username and password are required");

    await fillCreate(dialog, { username: "someone", password: "abcdef", confirm: "abcdeg" });
    await submit.click();
    await expect(alert).toHaveText("Passwords do not match");

    await fillCreate(dialog, { username: "someone", password: "abcde" });
    await submit.click();
    await expect(alert).toHaveText("Password must be at least 6 characters long");

    // Taken in another letter case: the server answers 409; the dialog says 'Failed to create user' and the server's reason.
    await fillCreate(dialog, { username: taken.username.toUpperCase(), password: "abcdef" });
    await submit.click();
    await expect(alert).toHaveText(`Failed to create user: ${MESSAGES.usernameTaken}`);
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("Username").fill(`${taken.username}x`);
    await expect(alert).toHaveCount(0);

    // Cancel closes without creating anything.
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card(page, `${taken.username}x`)).toHaveCount(0);
  });

  test("the strength indicator is advisory: a weak but valid password is accepted", async ({ page }) => {
    const manager = await createUser(api, "manager");
    await signIn(page, manager);
    await openUsers(page);
    const dialog = await openCreateDialog(page);
    const username = uniqueName("weak");
    await fillCreate(dialog, { username, password: "aaaaaa" });
    const strength = dialog.getByTestId("password-strength");
    await expect(strength).toContainText("Weak");
    await expect(strength.getByRole("listitem").filter({ hasText: "Lowercase letter" })).toContainText("(met)");
    await expect(strength.getByRole("listitem").filter({ hasText: "Uppercase letter" })).toContainText("(not met)");
    await dialog.getByLabel("Password", { exact: true }).fill("Aa1!aaaaaaaaaaaa");
    await expect(strength).toContainText("Very Strong");
    await dialog.getByLabel("Password", { exact: true }).fill("aaaaaa");
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(dialog).toHaveCount(0);
    await expect(card(page, username)).toBeVisible();
  });
});

test.describe("busy, loading and error states", () => {
  test("inputs are disabled while the create request runs", async ({ page }) => {
    const manager = await createUser(api, "manager");
    await signIn(page, manager);
    await openUsers(page);
    const dialog = await openCreateDialog(page);
    const username = uniqueName("busy");
    await fillCreate(dialog, { username, password: "abcdef", role: "inventory" });

    // Hold the request in the browser until the busy state has been checked.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth/users", async (route) => {
      if (route.request().method() !== "POST") return route.fallback();
      await held;
      await route.continue();
    });
    await dialog.getByRole("button", { name: "Create User" }).click();
    await expect(dialog.getByRole("button", { name: "Creating..." })).toBeDisabled();
    for (const label of ["Username", "Confirm Password", "Role"]) await expect(dialog.getByLabel(label)).toBeDisabled();
    await expect(dialog.getByLabel("Password", { exact: true })).toBeDisabled();
    await expect(dialog.getByRole("button", { name: "Cancel" })).toBeDisabled();
    release();
    await expect(dialog).toHaveCount(0);
    await expect(card(page, username)).toContainText("Inventory");
    await page.unroute("**/api/auth/users");
  });

  test("the list shows 'Loading users...', then on failure the error text with Try Again", async ({ page }) => {
    const manager = await createUser(api, "manager");
    await signIn(page, manager);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/auth/users", async (route) => {
      await held;
      await route.abort("connectionrefused");
    });
    await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Manage Users" }).click();
    await expect(page.getByText("Loading users...")).toBeVisible();
    release();
    // Network failures are retried twice before the view gives up.
    await expect(page.getByRole("alert")).toHaveText("Network error. Please check your connection.", { timeout: 20_000 });
    await page.unroute("**/api/auth/users");
    await page.getByRole("button", { name: "Try Again" }).click();
    await expect(card(page, manager.username)).toContainText("This is your account");
  });
});

test.describe("creating users", () => {
  test("a super_admin creates a user of each role; each signs in elsewhere with that role", async ({ page, browser }) => {
    await signIn(page, ADMIN);
    await openUsers(page);
    for (const role of ["streamer", "inventory", "manager", "super_admin"] as const) {
      const username = uniqueName(`ui-${role.replace("_", "")}`);
      const password = `Pw-${role}-123!`;
      const dialog = await openCreateDialog(page);
      await expect(dialog.getByLabel("Role")).toHaveValue("streamer");
      await fillCreate(dialog, { username, password, role });
      await dialog.getByRole("button", { name: "Create User" }).click();
      await expect(dialog).toHaveCount(0);

      const created = card(page, username);
      await expect(created).toBeVisible();
      await expect(created).toContainText(ROLE_LABELS[role]);
      await expect(created).toContainText("Active");
      const time = created.locator("time");
      const iso = await time.getAttribute("datetime");
      expect(iso).toBeTruthy();
      await expect(time).toHaveText(shortDate(iso as string));
      await expect(time).toHaveText(/^[A-Z][a-z]{2} \d{1,2}, \d{4}$/);
      if (role === "super_admin") await expect(created).toContainText("Protected");

      const other = await loginInNewContext(browser, { username, password });
      await expect(other.page.getByTestId("current-username")).toHaveText(username);
      await expect(other.page.getByRole("banner")).toContainText(ROLE_LABELS[role]);
      await other.context.close();
    }
  });
});

test.describe("disable, enable and reset password", () => {
  test("disabling a user signs their open session out; they cannot sign in until enabled again", async ({ page, browser }) => {
    const manager = await createUser(api, "manager");
    const target = await createUser(api, "inventory");
    const other = await loginInNewContext(browser, target);
    await expect(other.page.getByTestId("current-username")).toHaveText(target.username);

    await signIn(page, manager);
    await openUsers(page);
    const targetCard = card(page, target.username);
    await targetCard.getByRole("button", { name: `Disable ${target.username}` }).click();
    await expect(targetCard).toContainText("Disabled");
    await expect(targetCard.getByRole("button", { name: `Enable ${target.username}` })).toBeVisible();

    // Their open page drops to the login screen by itself (live connection revoked).
    await expect(other.page.getByRole("button", { name: "Login" })).toBeVisible();
    await loginForm(other.page, target);
    await expect(other.page.getByRole("alert")).toHaveText(MESSAGES.accountDisabled);

    // The state survives a reload (it comes from the server).
    await page.reload();
    await openUsers(page);
    await expect(targetCard).toContainText("Disabled");
    await targetCard.getByRole("button", { name: `Enable ${target.username}` }).click();
    await expect(targetCard).toContainText("Active");
    await expect(targetCard.getByRole("button", { name: `Disable ${target.username}` })).toBeVisible();

    await loginForm(other.page, target);
    await expect(other.page.getByTestId("current-username")).toHaveText(target.username);
    await other.context.close();
  });

  test("reset password: each validation message; the user is signed out and only the new password works", async ({ page, browser }) => {
    const manager = await createUser(api, "manager");
    const target = await createUser(api, "streamer");
    const other = await loginInNewContext(browser, target);
    await expect(other.page.getByTestId("current-username")).toHaveText(target.username);

    await signIn(page, manager);
    await openUsers(page);
    await card(page, target.username)
      .getByRole("button", { name: `Reset Password for ${target.username}` })
      .click();
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await expect(dialog).toContainText(target.username);
    const alert = dialog.getByRole("alert");
    const submit = dialog.getByRole("button", { name: "Reset Password" });
    const newPassword = dialog.getByLabel("New Password", { exact: true });
    const confirm = dialog.getByLabel("Confirm New Password");

    await submit.click();
    await expect(alert).toHaveText("New password is required");
    await newPassword.fill("abcdef");
    await expect(alert).toHaveCount(0);
    await confirm.fill("abcdeg");
    await submit.click();
    await expect(alert).toHaveText("Passwords do not match");
    await newPassword.fill("abc");
    await confirm.fill("abc");
    await submit.click();
    await expect(alert).toHaveText("Password must be at least 6 characters long");

    const fresh = "Fresh-Password-42";
    await newPassword.fill(fresh);
    await confirm.fill(fresh);
    await expect(dialog.getByTestId("password-strength")).toContainText("Very Strong");
    await submit.click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByText(`Password reset for ${target.username}`)).toBeVisible();

    // Their open session ends.
    await expect(other.page.getByRole("button", { name: "Login" })).toBeVisible();
    await loginForm(other.page, target);
    await expect(other.page.getByRole("alert")).toHaveText(MESSAGES.invalidCredentials);
    await loginForm(other.page, { username: target.username, password: fresh });
    await expect(other.page.getByTestId("current-username")).toHaveText(target.username);
    await other.context.close();
  });

  test("failures read 'Failed to update user status' and 'Failed to reset password'", async ({ page }) => {
    const manager = await createUser(api, "manager");
    const target = await createUser(api, "streamer");
    await signIn(page, manager);
    await openUsers(page);
    const targetCard = card(page, target.username);

    // The connection drops for these two calls (a real network failure in the browser).
    await page.route(`**/api/auth/users/${target.id}/**`, (route) => route.abort("connectionreset"));
    await targetCard.getByRole("button", { name: `Disable ${target.username}` }).click();
    await expect(page.getByText("Failed to update user status")).toBeVisible();
    await expect(targetCard).toContainText("Active");

    await targetCard.getByRole("button", { name: `Reset Password for ${target.username}` }).click();
    const dialog = page.getByRole("dialog", { name: "Reset Password" });
    await dialog.getByLabel("New Password", { exact: true }).fill("abcdef");
    await dialog.getByLabel("Confirm New Password").fill("abcdef");
    await dialog.getByRole("button", { name: "Reset Password" }).click();
    await expect(dialog.getByRole("alert")).toContainText("Failed to reset password");
    await expect(dialog.getByLabel("New Password", { exact: true })).toBeEnabled();
    await page.unroute(`**/api/auth/users/${target.id}/**`);

    // The old password still works: nothing changed.
    const check = await page.request.post("/api/auth/login", { data: { username: target.username, password: target.password } });
    expect(check.status()).toBe(200);
  });
});

test.describe("who may do what", () => {
  test("a manager sees super_admin cards protected with no actions and cannot create a super_admin", async ({ page }) => {
    const manager = await createUser(api, "manager");
    const otherAdmin = await createUser(api, "super_admin");
    await signIn(page, manager);
    await openUsers(page);

    for (const name of [E2E_ADMIN.username, otherAdmin.username]) {
      const adminCard = card(page, name);
      await expect(adminCard).toContainText("Super Administrator");
      await expect(adminCard).toContainText("Protected");
      await expect(adminCard).toContainText(PROTECTED_NOTE);
      await expect(adminCard.getByRole("button")).toHaveCount(0);
    }

    const dialog = await openCreateDialog(page);
    const roles = await dialog.getByLabel("Role").locator("option").allTextContents();
    expect(roles).toEqual(["Streamer", "Inventory", "Manager"]);
  });

  test("own card has no actions and reads 'This is your account'; a super_admin may act on other super_admins", async ({ page }) => {
    const admin = await createUser(api, "super_admin");
    await signIn(page, admin);
    await openUsers(page);
    const own = card(page, admin.username);
    await expect(own).toContainText("This is your account");
    await expect(own).toContainText("Protected");
    await expect(own.getByRole("button")).toHaveCount(0);

    const first = card(page, E2E_ADMIN.username);
    await expect(first).toContainText("Protected");
    await expect(first).not.toContainText(PROTECTED_NOTE);
    await expect(first.getByRole("button", { name: `Disable ${E2E_ADMIN.username}` })).toBeVisible();

    const dialog = await openCreateDialog(page);
    await expect(dialog.getByLabel("Role").locator("option")).toHaveText(["Streamer", "Inventory", "Manager", "Super Administrator"]);
  });
});

test.describe("access and layout", () => {
  for (const theme of ["light", "dark"] as const) {
    test(`no axe violations in the ${theme} theme (view, both dialogs)`, async ({ page }) => {
      const manager = await createUser(api, "manager");
      const disabled = await createUser(api, "inventory");
      await api.put(`/api/auth/users/${disabled.id}/status`, { data: { is_active: false } });
      await page.addInitScript((value) => localStorage.setItem("blez-theme", value), theme);
      await signIn(page, manager);
      await openUsers(page);
      expect(await page.evaluate(() => document.documentElement.classList.contains("dark"))).toBe(theme === "dark");
      await expect(card(page, disabled.username)).toContainText("Disabled");
      // Every test's users are listed: the scan reads this test's cards, one of each kind (own,
      // protected, disabled), not the hundreds the other tests made.
      const ours = [manager.username, disabled.username, E2E_ADMIN.username].map((name) => `:not([data-username="${name}"])`).join("");
      await expectNoAxeViolations(page, { colours: theme === "dark", exclude: `[data-testid="user-card"]${ours}` });

      const dialog = await openCreateDialog(page);
      await dialog.getByLabel("Password", { exact: true }).fill("Abc1");
      await dialog.getByRole("button", { name: "Create User" }).click();
      await expect(dialog.getByRole("alert")).toHaveText(MESSAGES.userRequired);
      await expect(dialog.getByTestId("password-strength")).toBeVisible();
      await expectNoAxeViolations(page, { colours: theme === "dark" });
      await page.keyboard.press("Escape");
      await expect(dialog).toHaveCount(0);

      await card(page, disabled.username)
        .getByRole("button", { name: `Reset Password for ${disabled.username}` })
        .click();
      const reset = page.getByRole("dialog", { name: "Reset Password" });
      await reset.getByRole("button", { name: "Reset Password" }).click();
      await expect(reset.getByRole("alert")).toBeVisible();
      await expectNoAxeViolations(page, { colours: theme === "dark" });
    });
  }

  test("keyboard only: open the dialog, create a user with Enter, Escape closes and focus returns", async ({ page }) => {
    const manager = await createUser(api, "manager");
    await signIn(page, manager);
    await openUsers(page);
    const createButton = page.getByRole("button", { name: "Create New User" });
    await createButton.focus();
    await page.keyboard.press("Enter");
    const dialog = page.getByRole("dialog", { name: "Create New User" });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByLabel("Username")).toBeFocused();

    const username = uniqueName("kbd");
    await page.keyboard.type(username);
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Password", { exact: true })).toBeFocused();
    await page.keyboard.type("Keyboard-1");
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Confirm Password")).toBeFocused();
    await page.keyboard.type("Keyboard-1");
    await page.keyboard.press("Tab");
    await expect(dialog.getByLabel("Role")).toBeFocused();
    await page.keyboard.press("ArrowDown");
    await expect(dialog.getByLabel("Role")).toHaveValue("inventory");
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(createButton).toBeFocused();

    await page.keyboard.press("Enter");
    await expect(dialog.getByLabel("Username")).toBeFocused();
    await page.keyboard.type(username);
    await dialog.getByLabel("Password", { exact: true }).fill("Keyboard-1");
    await dialog.getByLabel("Confirm Password").fill("Keyboard-1");
    await dialog.getByLabel("Confirm Password").press("Enter");
    await expect(dialog).toHaveCount(0);
    await expect(card(page, username)).toContainText("Streamer");
  });

  test("works at 390 px wide: one column, nothing wider than the screen, dialogs fit", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    const manager = await createUser(api, "manager");
    const target: TestUser = await createUser(api, "streamer", { username: uniqueName("a-rather-long-user-name-x") });
    await signIn(page, manager);
    await openUsers(page);
    const targetCard = card(page, target.username);
    await expect(targetCard).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const box = await targetCard.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(390);
    await targetCard.getByRole("button", { name: `Reset Password for ${target.username}` }).scrollIntoViewIfNeeded();
    await expect(targetCard.getByRole("button", { name: `Disable ${target.username}` })).toBeInViewport();

    const dialog = await openCreateDialog(page);
    const dialogBox = await dialog.boundingBox();
    expect(dialogBox?.width ?? 999).toBeLessThanOrEqual(390);
    await expect(dialog.getByRole("button", { name: "Create User" })).toBeVisible();
  });
});
