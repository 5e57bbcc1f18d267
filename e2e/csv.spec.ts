import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { productToRow } from "../src/client/features/csv/csv-format";
import { parseCsvText } from "../src/client/features/csv/csv-import";
import type { Product } from "../src/contract/products";
import { CSV_COLUMNS, CSV_EXPORT_COLUMNS, CSV_TEMPLATE_COLUMNS } from "../src/contract/rules";
import { adminApi, createProduct, createUser, signIn, uniqueEan13, uniqueName } from "./support/api";
import { letLiveToastsPassClicks, preferCardView } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

const fixture = (name: string) => new URL(`./fixtures/${name}`, import.meta.url).pathname;

async function openCsvDialog(page: Page) {
  const user = await createUser(api, "inventory");
  await preferCardView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await page.getByRole("button", { name: "Import/Export CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import/Export CSV" });
  await expect(dialog).toBeVisible();
  return dialog;
}

async function allProducts(): Promise<Product[]> {
  return (await (await api.get("/api/products")).json()) as Product[];
}

test("a file with errors: every message (10 listed, then the rest counted) and import blocked", async ({ page }) => {
  const dialog = await openCsvDialog(page);
  const file = dialog.getByLabel("Choose a CSV file");

  await file.setInputFiles({ name: "products.txt", mimeType: "text/plain", buffer: Buffer.from("barcode\n123\n") });
  await expect(dialog.getByRole("alert")).toHaveText("Please select a CSV file");

  await file.setInputFiles(fixture("broken.csv"));
  await expect(dialog.getByRole("alert")).toContainText("Error parsing CSV: ");

  await file.setInputFiles(fixture("invalid-products.csv"));
  const preview = dialog.getByTestId("csv-preview");
  await expect(preview.locator("tbody tr")).toHaveCount(5);
  await expect(preview).toContainText("INV-000001");
  await expect(preview).not.toContainText("INV-000006");
  const errors = dialog.getByRole("alert");
  for (const message of [
    "Row 3: Missing required field 'product_name'",
    "Row 4: Barcode too short",
    "Row 5: Invalid quantity (must be 0 or positive number)",
    "Row 6: Invalid release year (must be between 1900-2030)",
    "Row 7: Invalid is_active value (use: true/false, 1/0, yes/no)",
    "Row 8: Missing required field 'vendor'",
    "Row 9: Missing required field 'barcode'",
    "Row 10: Invalid quantity (must be 0 or positive number)",
    "Row 11: Invalid release year (must be between 1900-2030)",
    "Row 12: Invalid quantity (must be 0 or positive number)",
  ]) {
    await expect(errors.getByText(message, { exact: true })).toBeVisible();
  }
  await expect(errors.getByRole("listitem")).toHaveCount(10);
  await expect(errors).toContainText("... and 2 more errors");
  await expect(dialog.getByRole("button", { name: /^Import \d+ Products?$/ })).toBeDisabled();
  expect((await allProducts()).some((p) => p.barcode.startsWith("INV-0000"))).toBe(false);
});

test("a valid file: dry-run diff, confirm, 'Import Complete!' with the counts, products visible", async ({ page }) => {
  const tag = uniqueName("csv");
  const changed = await createProduct(api, { product_name: `${tag} Changed`, vendor: "Topps", release_year: 2024, quantity_on_hand: 5 });
  const same = await createProduct(api, { product_name: `${tag} Same`, vendor: "Topps", release_year: 2024, quantity_on_hand: 10 });
  const fresh = [uniqueEan13(), uniqueEan13()];
  const csv = [
    CSV_COLUMNS.join(","),
    `${fresh[0]}, ${tag} New One ,Panini,2023,7,yes`,
    `${fresh[1]},"${tag} New, Two",Leaf,,,`,
    `${changed.barcode},${tag} Changed,Topps,2024,8,true`,
    `${same.barcode},${same.product_name},Topps,2024,10,true`,
  ].join("\n");

  const dialog = await openCsvDialog(page);
  await dialog.getByLabel("Choose a CSV file").setInputFiles({ name: "good.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await expect(dialog.getByTestId("csv-preview").locator("tbody tr")).toHaveCount(4);
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Import 4 Products" }).click();

  const diff = dialog.getByTestId("import-diff");
  await expect(diff.getByTestId("diff-create")).toHaveText("2");
  await expect(diff.getByTestId("diff-update")).toHaveText("1");
  await expect(diff.getByTestId("diff-unchanged")).toHaveText("1");
  await expect(diff.getByRole("row", { name: new RegExp(changed.barcode) })).toContainText("quantity_on_hand: 5 → 8");
  // The dry run wrote nothing.
  expect((await allProducts()).some((p) => p.barcode === fresh[0])).toBe(false);

  await diff.getByRole("button", { name: "Confirm Import" }).click();
  const result = dialog.getByTestId("import-result");
  await expect(result).toContainText("Import Complete!");
  await expect(result.getByTestId("import-created")).toHaveText("2");
  await expect(result.getByTestId("import-updated")).toHaveText("1");
  await expect(result.getByTestId("import-skipped")).toHaveText("1");

  const products = await allProducts();
  expect(products.find((p) => p.barcode === fresh[0])).toMatchObject({
    product_name: `${tag} New One`,
    vendor: "Panini",
    release_year: 2023,
    quantity_on_hand: 7,
    is_active: true,
  });
  expect(products.find((p) => p.barcode === fresh[1])).toMatchObject({ release_year: null, quantity_on_hand: 0, is_active: true });
  expect(products.find((p) => p.id === changed.id)?.quantity_on_hand).toBe(8);

  await page.keyboard.press("Escape");
  await page.getByRole("searchbox", { name: "Search products" }).fill(tag);
  await expect(page.getByTestId("product-card")).toHaveCount(4);
  await expect(page.getByText(`${tag} New, Two`)).toBeVisible();
});

test("an import undone from its outcome and listed in Recent imports: fields back, new product disabled, a sale since kept and reported", async ({
  page,
}) => {
  const tag = uniqueName("undo");
  const renamed = await createProduct(api, { product_name: `${tag} Renamed`, vendor: "Topps", release_year: 2024, quantity_on_hand: 5 });
  const restocked = await createProduct(api, {
    product_name: `${tag} Restocked`,
    vendor: "Topps",
    release_year: 2024,
    quantity_on_hand: 5,
  });
  const fresh = uniqueEan13();
  const csv = [
    CSV_COLUMNS.join(","),
    `${renamed.barcode},${tag} Renamed,Panini,2024,5,true`,
    `${restocked.barcode},${tag} Restocked,Topps,2024,9,true`,
    `${fresh},${tag} Fresh,Leaf,2024,3,true`,
  ].join("\n");
  const dialog = await openCsvDialog(page);
  await dialog.getByLabel("Choose a CSV file").setInputFiles({ name: "undo.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  await dialog.getByRole("button", { name: "Import 3 Products" }).click();
  await dialog.getByTestId("import-diff").getByRole("button", { name: "Confirm Import" }).click();
  const result = dialog.getByTestId("import-result");
  await expect(result.getByTestId("import-updated")).toHaveText("2");
  await expect(result.getByTestId("import-created")).toHaveText("1");

  // A sale after the import: the stock the import set is no longer its own to take back.
  const sold = await api.put(`/api/products/${restocked.id}/quantity`, { data: { quantity_change: -1, reason: "Sold" } });
  expect(sold.ok()).toBe(true);

  await result.getByRole("button", { name: "Undo this import" }).click();
  await dialog.getByRole("button", { name: "Yes, undo import" }).click();
  const undone = dialog.getByTestId("undo-result");
  await expect(undone).toContainText("Reverted 1 product, disabled 1");
  await expect(undone.getByTestId("not-reverted")).toContainText(`${tag} Restocked`);
  await expect(undone.getByTestId("not-reverted")).toContainText("Changed since the import (quantity_on_hand): left as it is");

  const products = await allProducts();
  expect(products.find((p) => p.id === renamed.id)).toMatchObject({ vendor: "Topps" });
  expect(products.find((p) => p.id === restocked.id)).toMatchObject({ quantity_on_hand: 8 });
  expect(products.find((p) => p.barcode === fresh)).toMatchObject({ is_active: false });

  // The list of recent imports shows it as undone, without an Undo button.
  await dialog.getByRole("button", { name: "Recent imports" }).click();
  const imports = (await (await api.get("/api/imports?limit=100")).json()) as Array<{ id: string; undone_at: string | null }>;
  // The only test that undoes an import.
  const mine = imports.find((i) => i.undone_at !== null);
  expect(mine).toBeDefined();
  const row = dialog.locator(`[data-import-id="${mine?.id}"]`);
  await expect(row.getByTestId("import-status")).toHaveText(/Undone/);
  await expect(row.getByTestId("undo-import")).toHaveCount(0);
});

test("a failing import says 'Import failed: ...'", async ({ page }) => {
  const dialog = await openCsvDialog(page);
  const barcode = uniqueEan13();
  const csv = `${CSV_COLUMNS.join(",")}\n${barcode},Box,Topps,2024,1,true\n`;
  await dialog.getByLabel("Choose a CSV file").setInputFiles({ name: "one.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
  // The connection drops for the import request alone (a real network failure in the browser;
  // clearing the cookies instead would sign the page out whenever a live event refetches).
  await dialog.getByRole("button", { name: "Import 1 Product" }).click();
  const confirm = dialog.getByRole("button", { name: "Confirm Import" });
  await expect(confirm).toBeEnabled();
  await page.route("**/api/products/import", (route) => route.abort("connectionreset"));
  await confirm.click();
  await expect(dialog.getByText("Import failed: Network error. Please check your connection.")).toBeVisible();
  await page.unroute("**/api/products/import");
  expect((await allProducts()).some((p) => p.barcode === barcode)).toBe(false);
});

test("exports download the inventory as CSV that parses back to the same rows; template", async ({ page }) => {
  const tag = uniqueName("exp");
  const on = await createProduct(api, { product_name: `=${tag} formula`, vendor: "+Vendor, Inc.", release_year: null });
  const off = await createProduct(api, { product_name: `${tag} "quoted"\nline`, vendor: "@home", is_active: false });
  const dialog = await openCsvDialog(page);
  const today = new Date();
  const day = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, "0")}-${String(today.getDate()).padStart(2, "0")}`;

  async function download(button: string) {
    const [file] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: button }).click()]);
    const path = await file.path();
    return { name: file.suggestedFilename(), text: readFileSync(path, "utf8") };
  }

  const complete = await download("Export Complete Inventory");
  expect(complete.name).toBe(`inventory-complete-${day}.csv`);
  // Formula-looking cells are neutralised in the file itself.
  expect(complete.text).toContain(`'=${tag} formula`);
  expect(complete.text).toContain("'+Vendor, Inc.");
  const parsed = parseCsvText(complete.text);
  expect(parsed.fields).toEqual([...CSV_EXPORT_COLUMNS]);
  const server = await allProducts();
  const byBarcode = new Map(parsed.rows.map((r) => [r.barcode, r]));
  for (const p of [on, off]) {
    const current = server.find((s) => s.id === p.id);
    if (!current) throw new Error("missing product");
    expect(byBarcode.get(p.barcode)).toEqual(productToRow(current));
  }
  expect(byBarcode.get(on.barcode)?.product_name).toBe(`=${tag} formula`);

  const active = await download("Export Active Inventory");
  expect(active.name).toBe(`inventory-active-${day}.csv`);
  const activeRows = parseCsvText(active.text).rows;
  expect(activeRows.some((r) => r.barcode === on.barcode)).toBe(true);
  expect(activeRows.some((r) => r.barcode === off.barcode)).toBe(false);
  expect(activeRows.every((r) => r.is_active === "true")).toBe(true);

  const template = await download("Download Template");
  expect(template.name).toBe("inventory-template.csv");
  const templateRows = parseCsvText(template.text);
  expect(templateRows.fields).toEqual([...CSV_TEMPLATE_COLUMNS]);
  expect(templateRows.rows).toHaveLength(2);
});

test("a file larger than one part is checked and sent in parts of 5,000 rows with a progress bar, then written at once @large", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const tag = uniqueName("parts");
  const count = 12_001;
  const lines = [CSV_COLUMNS.join(",")];
  for (let i = 0; i < count; i++) lines.push(`${tag}-${String(i).padStart(5, "0")},${tag} Card ${i},Topps,2024,${i % 40},true`);
  const dialog = await openCsvDialog(page);
  const calls: string[] = [];
  page.on("request", (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith("/api/products/import")) calls.push(`${r.method()} ${url.pathname}${url.search}`);
  });
  await dialog
    .getByLabel("Choose a CSV file")
    .setInputFiles({ name: "big.csv", mimeType: "text/csv", buffer: Buffer.from(lines.join("\n")) });
  await dialog.getByRole("button", { name: "Import 12,001 Products" }).click();
  await expect(dialog.getByTestId("diff-create")).toHaveText("12001", { timeout: 60_000 });
  expect(calls.filter((c) => c === "POST /api/products/import?dry_run=true")).toHaveLength(3);

  await dialog.getByRole("button", { name: "Confirm Import" }).click();
  await expect(dialog.getByRole("progressbar", { name: "Import progress" })).toBeVisible();
  await expect(dialog.getByText("Import Complete!")).toBeVisible({ timeout: 120_000 });
  await expect(dialog.getByTestId("import-created")).toHaveText("12001");
  expect(calls.filter((c) => /^PUT \/api\/products\/import\/jobs\/[\w-]+\/parts\/[0-2]$/.test(c))).toHaveLength(3);
  expect(calls.filter((c) => /^POST \/api\/products\/import\/jobs\/[\w-]+\/commit$/.test(c))).toHaveLength(1);
  // No single call was the whole file.
  expect(calls).not.toContain("POST /api/products/import");
  const last = await api.get(`/api/products/barcode/${tag}-12000`);
  expect(last.status()).toBe(200);
});
