import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Order } from "../src/contract/orders";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { letLiveToastsPassClicks, preferCardView, preferTableView, productCard } from "./support/page";

/** Every screen at its own address: Back and Forward, reloads, links beyond a role (src/client/shell/routes.ts). */

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

const views = (page: Page) => page.getByRole("navigation", { name: "Views" });
const path = (page: Page) => new URL(page.url()).pathname;
const query = (page: Page) => new URL(page.url()).searchParams;

test("Back and Forward walk the views a manager opened; each view's link says which is current; focus goes to the main landmark", async ({
  page,
}) => {
  await signIn(page, await createUser(api, "manager"));
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page).toHaveURL(/\/inventory$/);

  await views(page).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await expect(views(page).getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("main")).toBeFocused();
  await expect.poll(() => path(page)).toBe("/reports");

  await views(page).getByRole("link", { name: "Manage Users" }).click();
  await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);

  await page.goBack();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await expect(views(page).getByRole("link", { name: "Reports" })).toHaveAttribute("aria-current", "page");
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(views(page).getByRole("link", { name: "Full Inventory" })).toHaveAttribute("aria-current", "page");
  await page.goForward();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  await page.goForward();
  await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();

  // An address the app does not know lands on the default view.
  await page.goto("/no/such/screen");
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page).toHaveURL(/\/inventory$/);
});

test("a view chosen while a search still waits to go into the address stays chosen, its code slow to arrive", async ({ page }) => {
  await createProduct(api, { product_name: uniqueName("Waiting Card"), quantity_on_hand: 1 });
  await signIn(page, await createUser(api, "manager"));
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  // The next view's code held back longer than a search waits before it is written: the
  // inventory, still on screen meanwhile, must not write its search over the new address.
  await page.route(/\/assets\/users-view[^/]*\.js$/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    await route.continue();
  });
  await page.getByRole("searchbox", { name: "Search products" }).fill(uniqueName("Waiting"));
  await views(page).getByRole("link", { name: "Manage Users" }).click();
  await expect(page.getByRole("heading", { name: "User Management" })).toBeVisible();
  await expect(page).toHaveURL(/\/users$/);
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect.poll(() => path(page)).toBe("/inventory");
});

test("a reload on a report's address keeps its range; a range chosen on screen goes into the address", async ({ page }) => {
  await signIn(page, await createUser(api, "inventory"));
  await page.goto("/reports?from=2026-01-05&to=2026-01-20&by=week");
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
  const from = page.getByRole("textbox", { name: "From", exact: true });
  const to = page.getByRole("textbox", { name: "To", exact: true });
  await expect(from).toHaveValue("2026-01-05");
  await expect(to).toHaveValue("2026-01-20");
  await expect(page.getByRole("radio", { name: "Week" })).toBeChecked();
  await expect(page.getByRole("radio", { name: "Custom" })).toBeChecked();

  await page.reload();
  await expect(from).toHaveValue("2026-01-05");
  await expect(to).toHaveValue("2026-01-20");

  await from.fill("2026-01-10");
  await expect.poll(() => query(page).get("from")).toBe("2026-01-10");
  expect(query(page).get("to")).toBe("2026-01-20");
  await page.reload();
  await expect(from).toHaveValue("2026-01-10");
  await expect(to).toHaveValue("2026-01-20");
});

test("a product's address opens its Edit dialog, again after a reload; Back closes it; a report opens it over the report", async ({
  page,
}) => {
  const manager = await createUser(api, "manager");
  const product = await createProduct(api, { product_name: uniqueName("Address Card"), quantity_on_hand: 1, reorder_point: 3 });
  await preferCardView(page);
  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  await page.getByRole("searchbox", { name: "Search products" }).fill(product.product_name);
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog.getByLabel("Product name")).toHaveValue(product.product_name);
  await expect(page).toHaveURL(new RegExp(`/inventory/products/${product.id}$`));

  await page.reload();
  await expect(dialog.getByLabel("Product name")).toHaveValue(product.product_name);
  // Behind it (hidden from the accessibility tree while the dialog is open), the inventory as it was:
  // its search kept with the entry.
  await expect(page.getByRole("searchbox", { name: "Search products", includeHidden: true })).toHaveValue(product.product_name);
  await page.goBack();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/inventory\?q=/);
  await expect(productCard(page, product)).toBeVisible();

  // From a report: the dialog opens over the report, and closing it goes back to the report.
  await views(page).getByRole("link", { name: "Reports" }).click();
  const reorder = page.getByTestId("report-reorder");
  await reorder.getByRole("button", { name: product.product_name }).click();
  await expect(dialog.getByLabel("Product name")).toHaveValue(product.product_name);
  await expect(page).toHaveURL(new RegExp(`/inventory/products/${product.id}$`));
  // (The dialog hides the rest of the page from the accessibility tree.)
  await expect(page.getByTestId("reports-view")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancel" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/reports\?from=/);
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();

  // A product that is not there: said so, and the inventory.
  await page.goto("/inventory/products/999999999");
  await expect(page.getByText("Product not found")).toBeVisible();
  await expect(page).toHaveURL(/\/inventory$/);
});

test("a streamer following a link to Integrations lands on the streamer view, told why", async ({ page }) => {
  await signIn(page, await createUser(api, "streamer"));
  await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
  await page.goto("/integrations");
  await expect(page.getByText("You don't have access to Integrations")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
  await expect(page).toHaveURL(/\/streamer$/);
  await expect(page.getByRole("heading", { name: "Integrations" })).toHaveCount(0);
});

test("the inventory's search, filters and sort are in its address and survive a reload; a link to the plain inventory clears them", async ({
  page,
}) => {
  const vendor = uniqueName("Bowman");
  const kept = await createProduct(api, { product_name: uniqueName("Kept"), vendor, quantity_on_hand: 3 });
  const other = await createProduct(api, { product_name: uniqueName("Other"), vendor, quantity_on_hand: 30 });
  await preferCardView(page);
  await signIn(page, await createUser(api, "inventory"));
  const search = page.getByRole("searchbox", { name: "Search products" });
  await search.fill(vendor);
  await expect(productCard(page, other)).toBeVisible();
  await page.getByRole("button", { name: /^Filters/ }).click();
  await page.getByLabel("Quantity", { exact: true }).selectOption("low");
  await expect(productCard(page, other)).toHaveCount(0);
  await expect.poll(() => query(page).get("stock")).toBe("low");
  expect(query(page).get("q")).toBe(vendor);

  await page.reload();
  await expect(search).toHaveValue(vendor);
  await expect(productCard(page, kept)).toBeVisible();
  await expect(productCard(page, other)).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Filters (1)" })).toBeVisible();

  // A link to the plain inventory clears them.
  // (Until the streamer view's code has loaded, the inventory stays on screen, and its own link keeps its query.)
  await views(page).getByRole("link", { name: "Streamer View" }).click();
  await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
  await views(page).getByRole("link", { name: "Full Inventory" }).click();
  await expect(search).toHaveValue("");

  // The table's sort: from the address, and into it.
  await preferTableView(page);
  await page.goto(`/inventory?q=${encodeURIComponent(vendor)}&sort=-quantity_on_hand`);
  const quantity = page.getByRole("columnheader", { name: "Quantity" });
  await expect(quantity).toHaveAttribute("aria-sort", "descending");
  await expect(page.getByTestId("product-row").first()).toHaveAttribute("data-barcode", other.barcode);
  await quantity.getByRole("button").click();
  await expect(quantity).not.toHaveAttribute("aria-sort", "descending");
  await expect.poll(() => query(page).get("sort")).not.toBe("-quantity_on_hand");
  const sort = query(page).get("sort");
  await page.reload();
  await expect.poll(() => query(page).get("sort")).toBe(sort);
  await expect(page.getByTestId("product-row").first()).toHaveAttribute(
    "data-barcode",
    sort === "quantity_on_hand" ? kept.barcode : other.barcode,
  );
});

test("an order's address opens its detail over the Orders list, again after a reload; Back closes it", async ({ page }) => {
  const product = await createProduct(api, { product_name: uniqueName("Order Card"), quantity_on_hand: 5 });
  const channel = uniqueName("shop");
  const placed = await api.post("/api/orders", {
    data: { channel, external_id: "W-1", lines: [{ barcode: product.barcode, quantity: 2, unit_price: 1250 }] },
  });
  expect(placed.status()).toBe(201);
  const { order } = (await placed.json()) as { order: Order };

  await signIn(page, await createUser(api, "manager"));
  await views(page).getByRole("link", { name: "Orders" }).click();
  await page.getByLabel("Channel").fill(channel);
  await page.getByRole("button", { name: `${channel} · W-1` }).click();
  const detail = page.getByRole("dialog", { name: `Order ${channel} · W-1` });
  await expect(detail.getByTestId("order-detail")).toContainText(`2 × ${product.product_name}`);
  await expect(page).toHaveURL(new RegExp(`/orders/${order.id}$`));

  await page.reload();
  await expect(detail.getByTestId("order-detail")).toContainText(`2 × ${product.product_name}`);
  await page.goBack();
  await expect(detail).toHaveCount(0);
  await expect(page).toHaveURL(/\/orders$/);

  // An inventory user may not see orders: the link lands on their default view.
  const inventory = await createUser(api, "inventory");
  await page.getByRole("button", { name: "Logout" }).click();
  await signIn(page, inventory);
  await page.goto(`/orders/${order.id}`);
  await expect(page.getByText("You don't have access to Orders")).toBeVisible();
  await expect(page).toHaveURL(/\/inventory$/);
});
