import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueEan13, uniqueName } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { barcodeVideo, launchWithCamera } from "./support/fake-camera";
import { expectNoAxeViolations, letLiveToastsPassClicks, preferCardView, productCard } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function openInventory(page: Page, role: "manager" | "inventory" = "manager") {
  const user = await createUser(api, role);
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  // The shared test server holds every test's products (over 100,000 once the large tests ran):
  // the first load may take a while on a busy machine.
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  return user;
}

const search = (page: Page) => page.getByRole("searchbox", { name: "Search products" });
const cards = (page: Page) => page.getByTestId("product-card");
const quantityOf = (c: Locator) => c.getByLabel("Quantity on hand");

async function serverProduct(id: number): Promise<Product> {
  const all = (await (await api.get("/api/products")).json()) as Product[];
  const found = all.find((p) => p.id === id);
  if (!found) throw new Error(`product ${id} not found`);
  return found;
}

async function byBarcode(barcode: string): Promise<Product | null> {
  const res = await api.get(`/api/products/barcode/${barcode}`);
  return res.status() === 200 ? ((await res.json()) as Product) : null;
}

/** Drags a card's body sideways with the mouse (pointer events), from its middle. */
async function swipe(page: Page, target: Locator, dx: number) {
  const box = await target.getByTestId("product-card-body").boundingBox();
  if (!box) throw new Error("card not visible");
  const y = box.y + 20;
  const x = box.x + box.width / 2;
  await page.mouse.move(x, y);
  await page.mouse.down();
  for (let i = 1; i <= 8; i++) await page.mouse.move(x + (dx * i) / 8, y);
  await page.mouse.up();
}

test("management buttons, search, filters and clearing them", async ({ page }) => {
  const tag = uniqueName("flt");
  const vendor = `Vendor ${tag}`;
  const out = await createProduct(api, { product_name: `${tag} Out`, vendor, quantity_on_hand: 0, release_year: 2020 });
  const low = await createProduct(api, { product_name: `${tag} Low`, vendor, quantity_on_hand: 5, release_year: 2021 });
  const normal = await createProduct(api, { product_name: `${tag} Normal`, vendor: "Other", quantity_on_hand: 50, release_year: 2021 });
  const high = await createProduct(api, { product_name: `${tag} High`, vendor, quantity_on_hand: 51, release_year: 2022 });
  const off = await createProduct(api, { product_name: `${tag} Off`, vendor, quantity_on_hand: 7, is_active: false });
  await openInventory(page);

  for (const name of ["Scan to Add Product", "Add Product Manually", "Import/Export CSV", "View Audit Trail"]) {
    await expect(page.getByRole("button", { name })).toBeVisible();
  }
  await expect(page.getByRole("checkbox", { name: "Active only" })).toBeChecked();

  // Search covers name, vendor and barcode; disabled products are hidden while 'Active only' is on.
  await search(page).fill(tag);
  await expect(cards(page)).toHaveCount(4);
  await expect(page.getByTestId("results-summary")).toContainText("Showing 4 of");
  await search(page).fill(high.barcode);
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, high)).toBeVisible();
  await search(page).fill(vendor);
  await expect(cards(page)).toHaveCount(3);

  await page.getByRole("checkbox", { name: "Active only" }).uncheck();
  await expect(cards(page)).toHaveCount(4);
  await expect(productCard(page, off)).toContainText("Disabled");

  // The expandable panel: vendor, release year, quantity range, status.
  await search(page).fill(tag);
  await page.getByRole("button", { name: /^Filters/ }).click();
  await page.getByLabel("Quantity", { exact: true }).selectOption("out");
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, out)).toContainText("Out of stock");
  await page.getByLabel("Quantity", { exact: true }).selectOption("low");
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, low)).toContainText("Low stock");
  await page.getByLabel("Quantity", { exact: true }).selectOption("normal");
  await expect(cards(page)).toHaveCount(2); // 50 and the disabled 7
  await page.getByLabel("Quantity", { exact: true }).selectOption("high");
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, high)).toBeVisible();
  await page.getByLabel("Quantity", { exact: true }).selectOption("all");
  await page.getByLabel("Status").selectOption("disabled");
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, off)).toBeVisible();
  await page.getByLabel("Status").selectOption("all");
  await page.getByLabel("Vendor").selectOption("Other");
  await expect(cards(page)).toHaveCount(1);
  await expect(productCard(page, normal)).toBeVisible();
  await page.getByLabel("Vendor").selectOption("");
  await page.getByLabel("Release Year").selectOption("2021");
  await expect(cards(page)).toHaveCount(2);

  // No results, then 'Clear filters' in the summary brings everything back to the defaults.
  await search(page).fill(`${tag} nothing-like-this`);
  await expect(page.getByText("No products match your search or filters.")).toBeVisible();
  await page.getByRole("button", { name: "Clear filters" }).click();
  await expect(search(page)).toHaveValue("");
  await expect(page.getByRole("checkbox", { name: "Active only" })).toBeChecked();
  await expect(page.getByLabel("Release Year")).toHaveValue("");

  // 'Clear All' in the bar does the same.
  await search(page).fill(tag);
  await page.getByLabel("Quantity", { exact: true }).selectOption("high");
  await expect(cards(page)).toHaveCount(1);
  await page.getByRole("button", { name: "Clear All" }).click();
  await expect(search(page)).toHaveValue("");
  await expect(page.getByLabel("Quantity", { exact: true })).toHaveValue("all");
  await expect(page.getByRole("button", { name: "Clear filters" })).toHaveCount(0);
});

test("add product: every validation message, then a saved product", async ({ page }) => {
  await openInventory(page, "inventory");
  const barcode = uniqueEan13();
  const name = uniqueName("Added");
  await page.getByRole("button", { name: "Add Product Manually" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Product" });
  await expect(dialog.getByLabel("Quantity")).toHaveValue("0");

  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Barcode, product name, and vendor are required");
  // Editing a field clears the errors.
  await dialog.getByLabel("Barcode *").fill(barcode);
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByLabel("Product Name *").fill(name);
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Barcode, product name, and vendor are required");

  await dialog.getByLabel("Vendor *").fill("Leaf");
  await dialog.getByLabel("Release Year").fill("1899");
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Release year must be between 1900 and 2030");
  await dialog.getByLabel("Release Year").fill("2031");
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Release year must be between 1900 and 2030");

  await dialog.getByLabel("Release Year").fill("2025");
  await dialog.getByLabel("Quantity").fill("-1");
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Quantity must be a whole number of 0 or more");

  // A duplicate barcode: the server's message.
  const existing = await createProduct(api);
  await dialog.getByLabel("Quantity").fill("12");
  await dialog.getByLabel("Barcode *").fill(existing.barcode);
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("A product with this barcode already exists");

  await dialog.getByLabel("Barcode *").fill(barcode);
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog).toHaveCount(0);
  const saved = await byBarcode(barcode);
  expect(saved).toMatchObject({ product_name: name, vendor: "Leaf", release_year: 2025, quantity_on_hand: 12, is_active: true });
  await search(page).fill(name);
  await expect(productCard(page, { barcode })).toContainText("Leaf");
  await expect(quantityOf(productCard(page, { barcode }))).toHaveText("12");
});

test("edit product, and a conflict with a change made in another session", async ({ page, browser }) => {
  const product = await createProduct(api, { product_name: uniqueName("Edit"), vendor: "Panini", release_year: 2020, quantity_on_hand: 4 });
  await openInventory(page);
  await search(page).fill(product.barcode);
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog.getByLabel("Product Name *")).toHaveValue(product.product_name);

  // Required fields; a blank year is sent as null.
  await dialog.getByLabel("Vendor *").fill("  ");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog.getByRole("alert")).toHaveText("Barcode, product name, and vendor are required");
  await dialog.getByLabel("Vendor *").fill("Panini America");
  await dialog.getByLabel("Release Year").fill("");
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await serverProduct(product.id)).vendor).toBe("Panini America");
  expect((await serverProduct(product.id)).release_year).toBeNull();
  await expect(productCard(page, product)).toContainText("Panini America");

  // Open the dialog, then someone else changes the product in their own session.
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  await dialog.getByLabel("Product Name *").fill(`${product.product_name} (mine)`);
  const other = await browser.newContext({ baseURL: E2E_BASE_URL });
  const otherUser = await createUser(api, "inventory");
  await other.request.post("/api/auth/login", { data: { username: otherUser.username, password: otherUser.password } });
  const current = await serverProduct(product.id);
  const theirs = await other.request.put(`/api/products/${product.id}`, {
    data: { ...current, product_name: `${product.product_name} (theirs)`, quantity_on_hand: 9, version: current.version },
  });
  expect(theirs.status()).toBe(200);
  await other.close();

  await dialog.getByRole("button", { name: "Save Changes" }).click();
  const conflict = dialog.getByTestId("edit-conflict");
  await expect(conflict).toContainText("This product was changed by someone else");
  const nameRow = conflict.getByRole("row", { name: /Product Name/ });
  await expect(nameRow).toContainText(`${product.product_name} (theirs)`);
  await expect(nameRow).toContainText(`${product.product_name} (mine)`);
  // Only the field both changed is in conflict: their stock change is not, and stays.
  await expect(conflict.getByRole("row", { name: /Quantity/ })).toHaveCount(0);
  await dialog.getByRole("button", { name: "Apply My Changes" }).click();
  await expect(dialog).toHaveCount(0);
  await expect.poll(async () => (await serverProduct(product.id)).product_name).toBe(`${product.product_name} (mine)`);
  expect((await serverProduct(product.id)).quantity_on_hand).toBe(9);
  await expect(quantityOf(productCard(page, product))).toHaveText("9");

  // Discarding leaves the other change in place.
  const before = await serverProduct(product.id);
  await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
  await dialog.getByLabel("Vendor *").fill("Discarded Vendor");
  await api.put(`/api/products/${product.id}`, { data: { ...before, vendor: "Admin Vendor", version: before.version } });
  await dialog.getByRole("button", { name: "Save Changes" }).click();
  await expect(dialog.getByTestId("edit-conflict")).toBeVisible();
  await dialog.getByRole("button", { name: "Discard My Changes" }).click();
  await expect(dialog).toHaveCount(0);
  expect((await serverProduct(product.id)).vendor).toBe("Admin Vendor");
  await expect(productCard(page, product)).toContainText("Admin Vendor");
});

test("disable and enable by button and by swipe; swipe right edits", async ({ page }) => {
  const tag = uniqueName("swp");
  const a = await createProduct(api, { product_name: `${tag} A` });
  const b = await createProduct(api, { product_name: `${tag} B` });
  await openInventory(page);
  await search(page).fill(tag);
  await page.getByRole("checkbox", { name: "Active only" }).uncheck();
  await expect(cards(page)).toHaveCount(2);

  await productCard(page, a).getByRole("button", { name: "Disable", exact: true }).click();
  await expect(productCard(page, a)).toContainText("Disabled");
  await expect.poll(async () => (await serverProduct(a.id)).is_active).toBe(false);
  // A disabled product's quantity cannot change.
  await expect(productCard(page, a).getByRole("button", { name: /Increase quantity/ })).toBeDisabled();
  await expect(productCard(page, a).getByRole("button", { name: /Decrease quantity/ })).toBeDisabled();
  await productCard(page, a).getByRole("button", { name: "Enable", exact: true }).click();
  await expect(productCard(page, a)).not.toContainText("Disabled");
  await expect.poll(async () => (await serverProduct(a.id)).is_active).toBe(true);

  // A short drag does nothing; a left swipe past 50 px disables.
  await swipe(page, productCard(page, b), -40);
  await page.waitForTimeout(300);
  expect((await serverProduct(b.id)).is_active).toBe(true);
  await swipe(page, productCard(page, b), -90);
  await expect(productCard(page, b)).toContainText("Disabled");
  await expect.poll(async () => (await serverProduct(b.id)).is_active).toBe(false);
  // Swiping is off for disabled products.
  await swipe(page, productCard(page, b), 90);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await productCard(page, b).getByRole("button", { name: "Enable", exact: true }).click();
  await expect(productCard(page, b)).not.toContainText("Disabled");

  await swipe(page, productCard(page, b), 90);
  await expect(page.getByRole("dialog", { name: "Edit Product" })).toBeVisible();
  await expect(page.getByLabel("Product Name *")).toHaveValue(b.product_name);
});

test("quantity: a click changes by 1, holding repeats, each change recorded with 'Manual adjustment'", async ({ page }) => {
  const product = await createProduct(api, { quantity_on_hand: 10 });
  await openInventory(page);
  await search(page).fill(product.barcode);
  const c = productCard(page, product);
  await c.getByRole("button", { name: /Increase quantity/ }).click();
  await expect(quantityOf(c)).toHaveText("11");
  await expect.poll(async () => (await serverProduct(product.id)).quantity_on_hand).toBe(11);
  await c.getByRole("button", { name: /Decrease quantity/ }).click();
  await expect.poll(async () => (await serverProduct(product.id)).quantity_on_hand).toBe(10);

  const plus = c.getByRole("button", { name: /Increase quantity/ });
  await plus.hover();
  await page.mouse.down();
  await page.waitForTimeout(1200);
  await page.mouse.up();
  // Let the requests in flight land, then the server and the card agree and nothing more changes.
  await page.waitForTimeout(1500);
  const after = (await serverProduct(product.id)).quantity_on_hand;
  expect(after).toBeGreaterThan(12);
  await expect(quantityOf(c)).toHaveText(String(after));
  await page.waitForTimeout(500);
  expect((await serverProduct(product.id)).quantity_on_hand).toBe(after);

  const audit = await api.get(`/api/audit/quantity/${product.id}`);
  if (audit.status() === 200) {
    const entries = (await audit.json()) as Array<{ notes: string; transaction_type: string }>;
    const notes = entries.filter((e) => e.transaction_type === "adjustment").map((e) => e.notes);
    expect(notes.length).toBe(after - 10 + 2);
    expect(new Set(notes)).toEqual(new Set(["Manual adjustment"]));
  }
});

test("a change by another user appears live, and the scroll position is kept", async ({ page }) => {
  const tag = uniqueName("scr");
  const rows = Array.from({ length: 32 }, (_, i) => ({
    barcode: `${tag}-${i}`,
    product_name: `${tag} ${i}`,
    vendor: "Topps",
    quantity_on_hand: 30,
  }));
  expect((await api.post("/api/products/import", { data: { products: rows } })).status()).toBe(200);
  const first = await byBarcode(`${tag}-0`);
  if (!first) throw new Error("import failed");
  await page.setViewportSize({ width: 1280, height: 600 });
  await openInventory(page);
  await search(page).fill(first.barcode);
  await expect(quantityOf(productCard(page, first))).toHaveText("30");
  await api.put(`/api/products/${first.id}/quantity`, { data: { quantity_change: -4, reason: "Streamer adjustment" } });
  await expect(quantityOf(productCard(page, first))).toHaveText("26");

  // Scroll down the grid, change a product there: the list reloads and the page stays put.
  await search(page).fill(tag);
  await expect(page.getByTestId("results-summary")).toContainText("Showing 32 of");
  // Newest first: the first rows imported are at the bottom.
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(600);
  // The rows that came into view are measured as they render: wait until the page is still.
  let y = -1;
  await expect
    .poll(async () => {
      const before = y;
      await page.waitForTimeout(300);
      y = await page.evaluate(() => window.scrollY);
      return y === before;
    })
    .toBe(true);
  const target = await byBarcode(`${tag}-1`);
  if (!target) throw new Error("import failed");
  await productCard(page, target)
    .getByRole("button", { name: /Increase quantity/ })
    .click();
  await expect.poll(async () => (await serverProduct(target.id)).quantity_on_hand).toBe(31);
  await expect(quantityOf(productCard(page, target))).toHaveText("31");
  await page.waitForTimeout(1000);
  expect(Math.abs((await page.evaluate(() => window.scrollY)) - y)).toBeLessThan(5);
});

test("scan to add: a new barcode opens the add dialog with it filled in", async () => {
  const barcode = uniqueEan13();
  const browser = await launchWithCamera(await barcodeVideo(barcode));
  try {
    const page = await browser.newPage({ baseURL: E2E_BASE_URL });
    await openInventory(page, "inventory");
    await page.getByRole("button", { name: "Scan to Add Product" }).click();
    const dialog = page.getByRole("dialog", { name: "Add New Product" });
    await expect(dialog).toBeVisible({ timeout: 20_000 });
    await expect(dialog.getByLabel("Barcode *")).toHaveValue(barcode);
    await dialog.getByLabel("Product Name *").fill("Scanned Box");
    await dialog.getByLabel("Vendor *").fill("Topps");
    await dialog.getByRole("button", { name: "Add Product" }).click();
    await expect(dialog).toHaveCount(0);
    expect(await byBarcode(barcode)).toMatchObject({ product_name: "Scanned Box", quantity_on_hand: 0 });
  } finally {
    await browser.close();
  }
});

test("scan to add: a known barcode says so and offers to edit it", async () => {
  const product = await createProduct(api);
  const browser = await launchWithCamera(await barcodeVideo(product.barcode));
  try {
    const page = await browser.newPage({ baseURL: E2E_BASE_URL });
    await openInventory(page);
    await page.getByRole("button", { name: "Scan to Add Product" }).click();
    const scanner = page.getByRole("dialog", { name: "Scan to Add Product" });
    await expect(scanner.getByText("Product already in inventory")).toBeVisible({ timeout: 20_000 });
    await expect(scanner).toContainText(product.product_name);
    await scanner.getByRole("button", { name: "Edit Product" }).click();
    await expect(scanner).toHaveCount(0);
    await expect(page.getByRole("dialog", { name: "Edit Product" }).getByLabel("Barcode *")).toHaveValue(product.barcode);
  } finally {
    await browser.close();
  }
});

test("scan to add by typing: a known barcode, 'Scan Another Product', then a new one", async ({ page }) => {
  const product = await createProduct(api);
  await openInventory(page);
  await page.getByRole("button", { name: "Scan to Add Product" }).click();
  const scanner = page.getByRole("dialog", { name: "Scan to Add Product" });
  const manual = scanner.getByLabel("Enter barcode manually");
  await manual.fill(product.barcode);
  await scanner.getByRole("button", { name: "Look Up Product" }).click();
  await expect(scanner.getByText("Product already in inventory")).toBeVisible();
  await expect(scanner).toContainText(product.product_name);

  await scanner.getByRole("button", { name: "Scan Another Product" }).click();
  await expect(manual).toHaveValue("");
  const barcode = uniqueEan13();
  await manual.fill(barcode);
  await scanner.getByRole("button", { name: "Look Up Product" }).click();
  await expect(scanner).toHaveCount(0);
  await expect(page.getByRole("dialog", { name: "Add New Product" }).getByLabel("Barcode *")).toHaveValue(barcode);
});

for (const theme of ["light", "dark"] as const) {
  test(`no accessibility violations in the ${theme} theme`, async ({ page }) => {
    test.slow();
    await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
    const product = await createProduct(api, { quantity_on_hand: 3 });
    await createProduct(api, { quantity_on_hand: 2, is_active: false });
    await openInventory(page);
    await expect(page.locator("html")).toHaveClass(new RegExp(theme === "dark" ? "dark" : "^(?!.*dark)"));
    await search(page).fill(product.barcode);
    await page.getByRole("button", { name: /^Filters/ }).click();
    await expect(productCard(page, product)).toBeVisible();
    const scan = () => expectNoAxeViolations(page, { colours: theme === "dark" });
    await scan();
    await page.getByRole("checkbox", { name: "Active only" }).uncheck();
    await search(page).fill("");
    await scan();
    await page.getByRole("button", { name: "Add Product Manually" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Add Product" }).click();
    await expect(page.getByRole("dialog").getByRole("alert")).toBeVisible();
    await scan();
    await page.keyboard.press("Escape");
    await search(page).fill(product.barcode);
    await productCard(page, product).getByRole("button", { name: "Edit", exact: true }).click();
    await scan();
    // Its Close button, not Escape (Escape on this dialog: inventory-table.spec.ts): on a loaded
    // machine an Escape right after this scan twice left the dialog open (not reproduced since).
    await page.getByRole("dialog", { name: "Edit Product" }).getByRole("button", { name: "Close" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await page.getByRole("button", { name: "Import/Export CSV" }).click();
    await page.getByLabel("Choose a CSV file").setInputFiles(new URL("./fixtures/invalid-products.csv", import.meta.url).pathname);
    await expect(page.getByText("... and 2 more errors")).toBeVisible();
    await scan();
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "View Audit Trail" }).click();
    await expect(page.getByTestId("audit-change").first()).toBeVisible();
    await scan();
    await page.getByRole("tab", { name: "Quantity Changes" }).click();
    await expect(page.getByTestId("audit-quantity").first()).toBeVisible();
    await scan();
  });
}

test("20,000 products: the grid filters as you type @large", async ({ page }) => {
  test.setTimeout(240_000);
  const tag = uniqueName("bulk");
  const products = Array.from({ length: 20_000 }, (_, i) => ({
    barcode: `${tag}-${String(i).padStart(5, "0")}`,
    product_name: `${tag} Card ${i} ${["Prizm", "Chrome", "Optic", "Select"][i % 4]}`,
    vendor: ["Topps", "Panini", "Upper Deck", "Leaf"][i % 4],
    release_year: 2000 + (i % 25),
    quantity_on_hand: i % 80,
    is_active: "true",
  }));
  const res = await api.post("/api/products/import", { data: { products }, timeout: 180_000 });
  expect(res.status()).toBe(200);
  expect(((await res.json()) as { created: number }).created).toBe(20_000);

  await openInventory(page);
  await expect(page.getByTestId("results-summary")).toContainText(/Showing [\d,]+ of [\d,]+ products/, { timeout: 60_000 });
  // Only the rows in view are in the DOM.
  expect(await cards(page).count()).toBeLessThan(200);

  const query = `${tag}-01234`;
  const box = search(page);
  await box.click();
  const times: number[] = [];
  for (const ch of query) {
    await page.evaluate(() => performance.mark("keystroke"));
    await page.keyboard.type(ch);
    await page.waitForFunction(
      (value) => {
        const marks = performance.getEntriesByName("inventory-filtered") as PerformanceMark[];
        const last = marks.at(-1);
        return last && (last.detail as { searchText: string }).searchText === value;
      },
      await box.inputValue(),
    );
    times.push(
      await page.evaluate(() => {
        const start = performance.getEntriesByName("keystroke").at(-1)?.startTime ?? 0;
        const end = performance.getEntriesByName("inventory-filtered").at(-1)?.startTime ?? 0;
        return end - start;
      }),
    );
  }
  await expect(cards(page)).toHaveCount(1);
  await expect(page.getByText(`${tag} Card 1234 Optic`)).toBeVisible();
  const filterMs = await page.evaluate(() =>
    performance
      .getEntriesByName("inventory-filter")
      .slice(-20)
      .map((m) => m.duration),
  );
  console.log(`filtering alone (ms): ${filterMs.map((t) => t.toFixed(1)).join(" ")}`);
  const sorted = [...times].sort((x, y) => x - y);
  console.log(
    `20,000 products, keystroke to filtered render (ms): median ${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)}, all ${times.map((t) => t.toFixed(0)).join(" ")}`,
  );
});
