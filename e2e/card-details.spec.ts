import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import Papa from "papaparse";
import { PDFDocument } from "pdf-lib";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { imageVideo, launchWithCamera } from "./support/fake-camera";
import { letLiveToastsPassClicks, preferCardView, preferTableView, productCard, productRow } from "./support/page";

/** Card details: adding a slab, the card, table and streamer; filters, sort, stock value; CSV; labels. */

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function openInventory(page: Page, view: "grid" | "table") {
  const user = await createUser(api, "inventory");
  if (view === "grid") await preferCardView(page);
  else await preferTableView(page);
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  return user;
}

const search = (page: Page) => page.getByRole("searchbox", { name: "Search products" });

async function serverProduct(barcode: string): Promise<Product> {
  const res = await api.get(`/api/products/barcode/${encodeURIComponent(barcode)}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as Product;
}

test("a graded slab added with a price shows on the card, in the table and on the streamer's card", async ({ page, browser }) => {
  const name = uniqueName("Wembanyama Silver");
  await openInventory(page, "grid");
  await page.getByRole("button", { name: "Add Product Manually" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Product" });
  await dialog.getByRole("button", { name: "Generate shop code" }).click();
  await expect(dialog.getByLabel("Barcode *")).toHaveValue(/^SC-\d{6,}$/);
  const barcode = await dialog.getByLabel("Barcode *").inputValue();
  await dialog.getByLabel("Product Name *").fill(name);
  await dialog.getByLabel("Vendor *").fill("Panini");
  await dialog.getByLabel("Quantity").fill("1");
  const details = dialog.getByRole("group", { name: "Details" });
  await details.getByLabel("Price (USD)").fill("450.00");
  await details.getByLabel("Cost (USD)").fill("300");
  await details.getByLabel("Grader").selectOption("PSA");
  await details.getByLabel("Grade", { exact: true }).fill("10");
  await details.getByLabel("Set", { exact: true }).fill("2023 Prizm");
  await details.getByLabel("Card number").fill("136");
  await details.getByLabel("Location").fill("Case 2");
  await dialog.getByRole("button", { name: "Add Product" }).click();
  await expect(dialog).toHaveCount(0);

  expect(await serverProduct(barcode)).toMatchObject({ price: 45000, cost: 30000, grader: "PSA", grade: "10", location: "Case 2" });
  await search(page).fill(name);
  const card = productCard(page, { barcode });
  await expect(card.getByTestId("card-price")).toHaveText("$450.00");
  await expect(card.getByTestId("card-grade")).toHaveText("PSA 10");
  await expect(card.getByTestId("card-set")).toHaveText("2023 Prizm #136");
  await expect(card.getByTestId("card-location")).toHaveText("Case 2");

  // On a 1440 px laptop the table shows price, grade and location (not only in the DOM).
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.getByRole("button", { name: "Table", exact: true }).click();
  const row = productRow(page, { barcode });
  for (const text of ["$450.00", "PSA 10", "Case 2"]) await expect(row.getByText(text, { exact: true })).toBeVisible();

  const streamerContext = await browser.newContext({ baseURL: E2E_BASE_URL });
  const streamer = await streamerContext.newPage();
  await signIn(streamer, await createUser(api, "streamer"));
  await streamer.getByRole("button", { name: "Scan Barcode" }).click();
  await streamer.getByLabel("Enter barcode manually").fill(barcode);
  await streamer.getByLabel("Enter barcode manually").press("Enter");
  await expect(streamer.getByTestId("current-product-name")).toHaveText(name);
  await expect(streamer.getByTestId("current-price")).toHaveText(/\$450\.00/);
  await expect(streamer.getByTestId("current-details")).toHaveText("PSA 10 · 2023 Prizm #136");
  await streamerContext.close();
});

test("filters by grader, sorts by price, and the stock value is the sum of the rows shown", async ({ page }) => {
  const vendor = uniqueName("Vendor");
  const made = [
    await createProduct(api, {
      vendor,
      product_name: `${vendor} PSA slab`,
      quantity_on_hand: 2,
      price: 15050,
      cost: 9000,
      grader: "PSA",
      grade: "9",
    }),
    await createProduct(api, { vendor, product_name: `${vendor} raw`, quantity_on_hand: 5, price: 399, cost: 125, condition: "Near Mint" }),
    await createProduct(api, { vendor, product_name: `${vendor} unpriced`, quantity_on_hand: 3 }),
    await createProduct(api, {
      vendor,
      product_name: `${vendor} BGS slab`,
      quantity_on_hand: 1,
      price: 99999,
      cost: null,
      grader: "BGS",
      grade: "9.5",
    }),
  ];
  await openInventory(page, "table");
  await search(page).fill(vendor);
  await expect(page.getByTestId("product-row")).toHaveCount(4);
  await expect(page.getByTestId("stock-units")).toHaveText("11");
  // 2 x 150.50 + 5 x 3.99 + 1 x 999.99; 2 x 90.00 + 5 x 1.25
  await expect(page.getByTestId("stock-at-price")).toHaveText("$1,320.94");
  await expect(page.getByTestId("stock-at-cost")).toHaveText("$186.25");
  await expect(page.getByTestId("stock-value")).toContainText("1 without a price");

  const header = page.getByRole("columnheader", { name: "Price" });
  await header.getByRole("button").click();
  await expect(header).toHaveAttribute("aria-sort", "ascending");
  const order = () =>
    page
      .getByTestId("product-row")
      .evaluateAll((els) =>
        els
          .sort((a, b) => Number(a.getAttribute("aria-rowindex")) - Number(b.getAttribute("aria-rowindex")))
          .map((el) => el.getAttribute("data-barcode")),
      );
  const [psa, raw, unpriced, bgs] = made.map((p) => p.barcode);
  await expect.poll(order).toEqual([raw, psa, bgs, unpriced]);
  await header.getByRole("button").click();
  await expect.poll(order).toEqual([bgs, psa, raw, unpriced]);

  await page.getByRole("button", { name: /^Filters/ }).click();
  await page.getByLabel("Grader", { exact: true }).selectOption("PSA");
  await expect(page.getByTestId("product-row")).toHaveCount(1);
  await expect(productRow(page, { barcode: psa ?? "" })).toBeVisible();
  await expect(page.getByTestId("stock-units")).toHaveText("2");
  await expect(page.getByTestId("stock-at-price")).toHaveText("$301.00");

  const [file] = await Promise.all([page.waitForEvent("download"), page.getByRole("button", { name: "Stock value report" }).click()]);
  const report = Papa.parse<Record<string, string>>(readFileSync(await file.path(), "utf8").replace(/^\uFEFF/, ""), { header: true }).data;
  expect(report.map((r) => [r.barcode, r.value_at_price])).toEqual([
    [psa, "301.00"],
    ["", "301.00"],
  ]);
});

test("export and re-import round-trip every card detail", async ({ page }) => {
  const tag = uniqueName("round");
  const slab = await createProduct(api, {
    product_name: `${tag} slab, "quoted"`,
    price: 123456,
    cost: 1,
    condition: "Lightly Played",
    grader: "CGC",
    grade: "Authentic",
    set_name: "=Set",
    card_number: "RC-7",
    location: "Binder 9",
  });
  await openInventory(page, "grid");
  await page.getByRole("button", { name: "Import/Export CSV" }).click();
  const dialog = page.getByRole("dialog", { name: "Import/Export CSV" });
  const [file] = await Promise.all([
    page.waitForEvent("download"),
    dialog.getByRole("button", { name: "Export Complete Inventory" }).click(),
  ]);
  const text = readFileSync(await file.path(), "utf8").replace(/^\uFEFF/, "");
  const [header, ...lines] = text.split("\r\n");
  const ours = lines.filter((l) => l.startsWith(`${slab.barcode},`));
  expect(ours).toHaveLength(1);
  expect(ours[0]).toContain(",1234.56,0.01,Lightly Played,CGC,Authentic,'=Set,RC-7,Binder 9");

  // The exported row imports as no change at all.
  const upload = async (csv: string) => {
    await dialog.getByLabel("Choose a CSV file").setInputFiles({ name: "round.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
    await dialog.getByRole("button", { name: "Import 1 Product" }).click();
    return dialog.getByTestId("import-diff");
  };
  let diff = await upload(`${header}\r\n${ours[0]}\r\n`);
  await expect(diff.getByTestId("diff-unchanged")).toHaveText("1");
  await expect(diff.getByTestId("diff-update")).toHaveText("0");
  await diff.getByRole("button", { name: "Back" }).click();

  // Changed details update the product, shown old -> new first.
  const changed = ours[0]?.replace(",1234.56,0.01,Lightly Played,CGC,Authentic,", ",99.95,,Near Mint,,,") ?? "";
  diff = await upload(`${header}\r\n${changed}\r\n`);
  await expect(diff.getByTestId("diff-update")).toHaveText("1");
  await expect(diff).toContainText("price: 1234.56 → 99.95");
  await diff.getByRole("button", { name: "Confirm Import" }).click();
  await expect(dialog.getByTestId("import-result")).toContainText("Import Complete!");
  expect(await serverProduct(slab.barcode)).toMatchObject({
    price: 9995,
    cost: null,
    condition: "Near Mint",
    grader: null,
    grade: null,
    set_name: "=Set",
    card_number: "RC-7",
    location: "Binder 9",
  });
});

test("a printed label scans back to its product with the streamer's camera", async ({ page }) => {
  const code = ((await (await api.post("/api/products/shop-code")).json()) as { barcode: string }).barcode;
  const slab = await createProduct(api, {
    barcode: code,
    product_name: uniqueName("Label slab"),
    price: 2500,
    grader: "SGC",
    grade: "9.5",
    set_name: "Chrome",
    card_number: "12",
  });
  await openInventory(page, "table");
  await search(page).fill(slab.product_name);
  await productRow(page, slab)
    .getByRole("checkbox", { name: `Select ${slab.product_name}` })
    .check();
  await page.getByRole("button", { name: "Print labels (1)" }).click();
  const dialog = page.getByRole("dialog", { name: "Print labels" });
  await dialog.getByLabel("Label size").selectOption({ label: "Dymo 30334 (57 x 32 mm)" });
  await dialog.getByLabel(`Copies of ${slab.product_name}`).fill("2");
  await expect(dialog.getByRole("img", { name: `Label of ${slab.product_name}` })).toBeVisible();
  const [file] = await Promise.all([page.waitForEvent("download"), dialog.getByRole("button", { name: "Download PDF" }).click()]);
  const pdfPath = await file.path();

  // Two copies: two pages of 57 x 32 mm.
  const pdf = await PDFDocument.load(readFileSync(pdfPath));
  expect(pdf.getPageCount()).toBe(2);
  const { width, height } = pdf.getPage(0).getSize();
  expect([Math.round((width / 72) * 25.4), Math.round((height / 72) * 25.4)]).toEqual([57, 32]);

  // The first page printed (rasterised at 300 dpi) in front of the streamer's camera finds the product.
  const png = `${pdfPath}-label`;
  execFileSync("pdftoppm", ["-png", "-r", "300", "-f", "1", "-l", "1", "-singlefile", pdfPath, png]);
  const camera = await launchWithCamera(imageVideo(`${png}.png`));
  try {
    const streamer = await (await camera.newContext({ baseURL: E2E_BASE_URL })).newPage();
    await signIn(streamer, await createUser(api, "streamer"));
    await streamer.getByRole("button", { name: "Scan Barcode" }).click();
    await expect(streamer.getByTestId("camera-video")).toBeVisible();
    await expect(streamer.getByTestId("current-product-name")).toHaveText(slab.product_name, { timeout: 30_000 });
    await expect(streamer.getByTestId("current-price")).toHaveText(/\$25\.00/);
  } finally {
    await camera.close();
  }
});

test("'Print labels after adding' goes from the new product to its labels", async ({ page }) => {
  const name = uniqueName("Label after add");
  await openInventory(page, "grid");
  await page.getByRole("button", { name: "Add Product Manually" }).click();
  const dialog = page.getByRole("dialog", { name: "Add New Product" });
  await dialog.getByRole("button", { name: "Generate shop code" }).click();
  await expect(dialog.getByLabel("Barcode *")).toHaveValue(/^SC-\d{6,}$/);
  const barcode = await dialog.getByLabel("Barcode *").inputValue();
  await dialog.getByLabel("Product Name *").fill(name);
  await dialog.getByLabel("Vendor *").fill("Topps");
  await dialog.getByLabel("Print labels after adding").check();
  await dialog.getByRole("button", { name: "Add Product" }).click();

  // The add dialog gives way to the labels of the product just added, and only of it.
  const labels = page.getByRole("dialog", { name: "Print labels" });
  await expect(labels).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(labels.getByRole("img", { name: `Label of ${name}` })).toBeVisible();
  await expect(labels.getByRole("img")).toHaveCount(1);
  await expect(labels.getByText(barcode, { exact: true })).toBeVisible();
  await expect(labels.getByRole("button", { name: "Download PDF" })).toBeEnabled();
  await page.keyboard.press("Escape");
  await expect(labels).toHaveCount(0);
  expect(await serverProduct(barcode)).toMatchObject({ product_name: name });
});
