import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { letLiveToastsPassClicks, preferCardView, productCard } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

test("the audit trail shows the changes just made, by tab, user and date", async ({ page }) => {
  const user = await createUser(api, "manager");
  const product = await createProduct(api, { product_name: uniqueName("Audited"), vendor: "Topps", quantity_on_hand: 4 });
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  const search = page.getByRole("searchbox", { name: "Search products" });
  await search.fill(product.barcode);

  // Changes made through the interface by this user: an edit, a quantity change, disable and enable.
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  await page.getByLabel("Vendor *").fill("Topps Europe");
  await page.getByRole("button", { name: "Save Changes" }).click();
  await expect(productCard(page, product)).toContainText("Topps Europe");
  await productCard(page, product)
    .getByRole("button", { name: /Increase quantity/ })
    .click();
  await expect(productCard(page, product).getByLabel("Quantity on hand")).toHaveText("5");
  await page.getByRole("checkbox", { name: "Active only" }).uncheck();
  await productCard(page, product).getByRole("button", { name: "Disable", exact: true }).click();
  await expect(productCard(page, product)).toContainText("Disabled");
  await productCard(page, product).getByRole("button", { name: "Enable", exact: true }).click();
  await expect(productCard(page, product)).not.toContainText("Disabled");

  await page.getByRole("button", { name: "View Audit Trail" }).click();
  const dialog = page.getByRole("dialog", { name: "Audit Trail" });
  await expect(dialog.getByRole("tab", { name: "Product Changes" })).toHaveAttribute("aria-selected", "true");
  await dialog.getByLabel("User").selectOption({ label: `${user.username} (Manager)` });
  const changes = dialog.getByTestId("audit-change");
  await expect(changes).toHaveCount(4); // ENABLE, DISABLE, QUANTITY_ADD, UPDATE (newest first)
  await expect(changes.nth(0)).toContainText("ENABLE");
  await expect(changes.nth(1)).toContainText("DISABLE");
  await expect(changes.nth(1)).toContainText("Status: Active → Disabled");
  await expect(changes.nth(3)).toContainText("UPDATE");
  await expect(changes.nth(3)).toContainText("Vendor: Topps → Topps Europe");
  await expect(changes.nth(3)).toContainText(user.username);

  await dialog.getByRole("tab", { name: "Quantity Changes" }).click();
  const quantity = dialog.getByTestId("audit-quantity");
  await expect(quantity).toHaveCount(1);
  await expect(quantity.first()).toContainText("+1");
  await expect(quantity.first()).toContainText("Quantity: 4 → 5");
  await expect(quantity.first()).toContainText("Manual adjustment");

  // Date filter: today keeps them; the server gets `since`.
  const since = page.waitForRequest((r) => r.url().includes("/api/audit/quantity?") && r.url().includes("since="));
  await dialog.getByLabel("Date").selectOption("today");
  await since;
  await expect(quantity).toHaveCount(1);
  await dialog.getByLabel("Date").selectOption("week");
  await expect(quantity).toHaveCount(1);
  await dialog.getByLabel("Date").selectOption("month");
  await expect(quantity).toHaveCount(1);

  // Another user's list holds none of this user's entries.
  await dialog.getByLabel("User").selectOption({ label: "e2e-admin (Super Administrator)" });
  await expect(quantity.first()).toBeVisible();
  await expect(quantity.filter({ hasText: user.username })).toHaveCount(0);
  await expect(quantity.filter({ hasText: "e2e-admin" }).first()).toBeVisible();
  await dialog.getByRole("tab", { name: "Product Changes" }).click();
  await expect(changes.first()).toBeVisible();
  await expect(changes.filter({ hasText: user.username })).toHaveCount(0);
});

test("one product's trail, and the empty lists", async ({ page }) => {
  const user = await createUser(api, "inventory");
  const product = await createProduct(api, { product_name: uniqueName("Single"), quantity_on_hand: 0 });
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await page.getByRole("searchbox", { name: "Search products" }).fill(product.barcode);
  await productCard(page, product)
    .getByRole("button", { name: `Audit trail of ${product.product_name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Audit Trail: ${product.product_name}` });
  await expect(dialog.getByTestId("audit-change")).toHaveCount(1);
  await expect(dialog.getByTestId("audit-change")).toContainText("CREATE");
  await dialog.getByRole("tab", { name: "Quantity Changes" }).click();
  await expect(dialog.getByText("No quantity changes found")).toBeVisible();
  await dialog.getByLabel("User").selectOption({ label: `${user.username} (Inventory)` });
  await dialog.getByRole("tab", { name: "Product Changes" }).click();
  await expect(dialog.getByText("No product changes found")).toBeVisible();
});

test("paging by offset reaches every entry, and each tab exports its filtered entries as CSV", async ({ page }) => {
  test.slow();
  const user = await createUser(api, "manager");
  const product = await createProduct(api, { product_name: uniqueName("Paged"), quantity_on_hand: 1 });
  // 230 changes: the quantity tab holds 231 entries (with the stock it was created with).
  for (let i = 0; i < 230; i += 10) {
    await Promise.all(
      Array.from({ length: 10 }, () =>
        api.put(`/api/products/${product.id}/quantity`, { data: { quantity_change: 1, reason: "Received" } }),
      ),
    );
  }
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await page.getByRole("searchbox", { name: "Search products" }).fill(product.barcode);
  await productCard(page, product)
    .getByRole("button", { name: `Audit trail of ${product.product_name}` })
    .click();
  const dialog = page.getByRole("dialog", { name: `Audit Trail: ${product.product_name}` });
  await dialog.getByRole("tab", { name: "Quantity Changes" }).click();
  const panel = dialog.getByRole("tabpanel");
  await expect(panel.getByTestId("audit-quantity")).toHaveCount(100);
  await expect(panel.getByTestId("audit-range")).toHaveText("Entries 1–100");
  const older = page.waitForRequest((r) => r.url().includes(`/api/audit/quantity/${product.id}?`) && r.url().includes("offset=100"));
  await panel.getByRole("button", { name: "Older" }).click();
  await older;
  await expect(panel.getByTestId("audit-range")).toHaveText("Entries 101–200");
  await panel.getByRole("button", { name: "Older" }).click();
  await expect(panel.getByTestId("audit-range")).toHaveText("Entries 201–231");
  await expect(panel.getByTestId("audit-quantity")).toHaveCount(31);
  await expect(panel.getByRole("button", { name: "Older" })).toBeDisabled();
  await expect(panel.getByTestId("audit-quantity").last()).toContainText("create");
  await panel.getByRole("button", { name: "Newer" }).click();
  await expect(panel.getByTestId("audit-range")).toHaveText("Entries 101–200");

  const download = page.waitForEvent("download");
  await panel.getByRole("button", { name: "Export CSV" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(new RegExp(`^audit-quantity-product-${product.id}-\\d{4}-\\d{2}-\\d{2}\\.csv$`));
  const lines = readFileSync(await file.path(), "utf8")
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe("timestamp,product_name,barcode,quantity_change,quantity_before,quantity_after,transaction_type,notes,user_name");
  expect(lines).toHaveLength(232);
  expect(lines.filter((l) => l.includes(",adjustment,Received,"))).toHaveLength(230);

  await dialog.getByRole("tab", { name: "Product Changes" }).click();
  const changes = page.waitForEvent("download");
  await dialog.getByRole("tabpanel").getByRole("button", { name: "Export CSV" }).click();
  const changesFile = await changes;
  const changeLines = readFileSync(await changesFile.path(), "utf8")
    .trim()
    .split("\r\n");
  expect(changeLines).toHaveLength(232); // CREATE and 230 QUANTITY_ADD
  expect(changeLines.filter((l) => l.includes(",QUANTITY_ADD,"))).toHaveLength(230);
});
