import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueEan13, uniqueUpcA } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { barcodeVideo, launchWithCamera } from "./support/fake-camera";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function stockOnServer(barcode: string): Promise<number> {
  const res = await api.get(`/api/products/barcode/${barcode}`);
  return ((await res.json()) as Product).quantity_on_hand;
}

async function lookUp(page: Page, barcode: string) {
  await page.getByRole("button", { name: "Scan Barcode" }).click();
  await page.getByLabel("Enter barcode manually").fill(barcode);
  await page.getByRole("button", { name: "Look Up Product" }).click();
}

async function signInStreamer(page: Page) {
  const user = await createUser(api, "streamer");
  await signIn(page, user);
  await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
  return user;
}

test("manual entry: SOLD and ADD take the server's stock, undo reverts the last tap", async ({ page }) => {
  await signInStreamer(page);
  const product = await createProduct(api, { quantity_on_hand: 10, vendor: "Panini", release_year: 2023 });
  await lookUp(page, `  ${product.barcode}  `);
  await expect(page.getByTestId("scanner-overlay")).toHaveCount(0);
  const card = page.getByTestId("current-product");
  await expect(card.getByTestId("current-product-name")).toHaveText(product.product_name);
  await expect(card).toContainText("Panini");
  await expect(card).toContainText(product.barcode);
  await expect(card).toContainText("2023");
  await expect(card.getByTestId("current-stock")).toHaveText("10");

  await page.getByRole("button", { name: "SOLD (-1)" }).click();
  await expect(card.getByTestId("current-stock")).toHaveText("9");
  await expect.poll(() => stockOnServer(product.barcode)).toBe(9);

  await page.getByRole("button", { name: "ADD (+1)" }).click();
  await page.getByRole("button", { name: "ADD (+1)" }).click();
  await expect(card.getByTestId("current-stock")).toHaveText("11");
  await expect.poll(() => stockOnServer(product.barcode)).toBe(11);

  await expect(page.getByText(`Added 1: ${product.product_name} (11 in stock)`)).toBeVisible();
  await page.getByRole("button", { name: "Undo" }).click();
  await expect(card.getByTestId("current-stock")).toHaveText("10");
  await expect.poll(() => stockOnServer(product.barcode)).toBe(10);

  // The audit trail records the streamer's reason and the undo.
  const audit = await api.get(`/api/audit/quantity/${product.id}`);
  const notes = ((await audit.json()) as Array<{ notes: string }>).map((e) => e.notes);
  expect(notes).toContain("Streamer adjustment");
  expect(notes).toContain("Undo");
});

test("rapid taps are each applied exactly once", async ({ page }) => {
  await signInStreamer(page);
  const product = await createProduct(api, { quantity_on_hand: 20 });
  await lookUp(page, product.barcode);
  const sold = page.getByRole("button", { name: "SOLD (-1)" });
  for (let i = 0; i < 6; i++) await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("14");
  await expect.poll(() => stockOnServer(product.barcode)).toBe(14);
});

test("low stock at 5, SOLD disabled at 0", async ({ page }) => {
  await signInStreamer(page);
  const product = await createProduct(api, { quantity_on_hand: 6 });
  await lookUp(page, product.barcode);
  await expect(page.getByTestId("current-stock")).toHaveText("6");
  await expect(page.getByTestId("low-stock")).toHaveCount(0);
  const sold = page.getByRole("button", { name: "SOLD (-1)" });
  await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("5");
  await expect(page.getByTestId("low-stock")).toBeVisible();

  const last = await createProduct(api, { quantity_on_hand: 1 });
  await lookUp(page, last.barcode);
  await expect(page.getByTestId("current-stock")).toHaveText("1");
  await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("0");
  await expect(sold).toBeDisabled();
  await expect(page.getByRole("button", { name: "ADD (+1)" })).toBeEnabled();
  await expect.poll(() => stockOnServer(last.barcode)).toBe(0);
});

test("recent products: newest first, click makes current, at most 5", async ({ page }) => {
  await signInStreamer(page);
  const products: Product[] = [];
  for (let i = 0; i < 6; i++) products.push(await createProduct(api, { quantity_on_hand: 10 + i }));
  for (const p of products) {
    await lookUp(page, p.barcode);
    await expect(page.getByTestId("current-product-name")).toHaveText(p.product_name);
  }
  const recent = page.getByTestId("recent-products").getByRole("button");
  await expect(recent).toHaveCount(5);
  await expect(recent.first()).toContainText(products[5]?.product_name ?? "");
  await expect(page.getByTestId("recent-products")).not.toContainText(products[0]?.product_name ?? "");

  const second = products[1] as Product;
  await page
    .getByTestId("recent-products")
    .getByRole("button", { name: new RegExp(second.product_name) })
    .click();
  await expect(page.getByTestId("current-product-name")).toHaveText(second.product_name);
  await expect(page.getByTestId("current-stock")).toHaveText(String(second.quantity_on_hand));
});

test("disabled products: refused when scanned, dropped from recents when disabled later", async ({ page }) => {
  await signInStreamer(page);
  const off = await createProduct(api, { is_active: false });
  await lookUp(page, off.barcode);
  await expect(page.getByText("This product is currently disabled and cannot be used during streams.")).toBeVisible();
  await expect(page.getByTestId("scanner-overlay")).toHaveCount(0);
  await expect(page.getByTestId("current-product")).toHaveCount(0);

  const later = await createProduct(api);
  const other = await createProduct(api);
  await lookUp(page, later.barcode);
  await lookUp(page, other.barcode);
  await expect(page.getByTestId("recent-products").getByRole("button")).toHaveCount(2);
  await api.put(`/api/products/${later.id}/status`, { data: { is_active: false } });
  // The live update removes it from the list without a reload.
  await expect(page.getByTestId("recent-products").getByRole("button")).toHaveCount(1);
  await expect(page.getByTestId("recent-products")).not.toContainText(later.product_name);
});

test("a recent product disabled while the live connection was down warns on click and leaves the list", async ({ page }) => {
  // No live connection: the list cannot learn about the change before the click.
  await page.route("**/socket.io/**", (route) => route.abort());
  await signInStreamer(page);
  const stale = await createProduct(api);
  const other = await createProduct(api);
  await lookUp(page, stale.barcode);
  await lookUp(page, other.barcode);
  const recent = page.getByTestId("recent-products");
  await expect(recent.getByRole("button")).toHaveCount(2);
  await api.put(`/api/products/${stale.id}/status`, { data: { is_active: false } });

  await recent.getByRole("button", { name: new RegExp(stale.product_name) }).click();
  await expect(page.getByText("This product has been disabled and can no longer be used.")).toBeVisible();
  await expect(recent.getByRole("button")).toHaveCount(1);
  await expect(recent).not.toContainText(stale.product_name);
  await expect(page.getByTestId("current-product")).toHaveCount(0);
});

test("after the connection comes back, what changed meanwhile is shown", async ({ page, context }) => {
  await signInStreamer(page);
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  const product = await createProduct(api, { quantity_on_hand: 10 });
  await lookUp(page, product.barcode);
  await expect(page.getByTestId("current-stock")).toHaveText("10");

  await context.setOffline(true);
  await expect(page.getByTestId("live-state")).toHaveText("Offline");
  await api.put(`/api/products/${product.id}/quantity`, { data: { quantity_change: -3, reason: "Manual adjustment" } });
  await context.setOffline(false);
  await expect(page.getByTestId("live-state")).toHaveText("Live", { timeout: 20_000 });
  await expect(page.getByTestId("current-stock")).toHaveText("7");
});

test("scanner errors: not found, try again, close", async ({ page }) => {
  await signInStreamer(page);
  const missing = uniqueEan13();
  await lookUp(page, missing);
  await expect(page.getByText(`Product with barcode ${missing} not found in inventory`)).toBeVisible();
  await page.getByRole("button", { name: "Try Again" }).click();
  await expect(page.getByLabel("Enter barcode manually")).toHaveValue("");
  // An empty (blank) entry is ignored.
  await page.getByLabel("Enter barcode manually").fill("   ");
  await page.getByRole("button", { name: "Look Up Product" }).click();
  await expect(page.getByLabel("Enter barcode manually")).toBeVisible();
  await page.getByLabel("Enter barcode manually").fill(missing);
  await page.getByRole("button", { name: "Look Up Product" }).click();
  await page.getByRole("button", { name: "Close Scanner" }).click();
  await expect(page.getByTestId("scanner-overlay")).toHaveCount(0);
});

/**
 * A keyboard-wedge scanner: the digits and Enter go through Chromium's real input pipeline,
 * stamped 8 ms apart as a scanner's hardware stamps them. (Playwright's own typing sends a key
 * only after the page has handled the last one, so a busy test machine stretched the burst.)
 */
async function wedgeScan(page: Page, code: string) {
  const cdp = await page.context().newCDPSession(page);
  const start = Date.now() / 1000;
  const keys = [...code].map((ch) => ({ key: ch, code: `Digit${ch}`, text: ch, windowsVirtualKeyCode: ch.charCodeAt(0) }));
  keys.push({ key: "Enter", code: "Enter", text: "\r", windowsVirtualKeyCode: 13 });
  for (const [i, k] of keys.entries()) {
    const timestamp = start + i * 0.008;
    await cdp.send("Input.dispatchKeyEvent", { type: "keyDown", timestamp, ...k });
    await cdp.send("Input.dispatchKeyEvent", {
      type: "keyUp",
      timestamp,
      key: k.key,
      code: k.code,
      windowsVirtualKeyCode: k.windowsVirtualKeyCode,
    });
  }
  await cdp.detach();
}

test("a keyboard-wedge scan typed at scanner speed picks the product", async ({ page }) => {
  await signInStreamer(page);
  await expect(page.getByTestId("live-state")).toHaveText("Live");
  const product = await createProduct(api, { quantity_on_hand: 4 });
  await page.getByRole("heading", { name: "Streamer Interface" }).click();
  await wedgeScan(page, product.barcode);
  await expect(page.getByTestId("current-product-name")).toHaveText(product.product_name);
  await expect(page.getByTestId("current-stock")).toHaveText("4");

  // With SOLD focused, the scan's Enter must not press it.
  const other = await createProduct(api, { quantity_on_hand: 7 });
  await page.getByRole("button", { name: "SOLD (-1)" }).focus();
  await wedgeScan(page, other.barcode);
  await expect(page.getByTestId("current-product-name")).toHaveText(other.product_name);
  await expect(page.getByTestId("current-stock")).toHaveText("7");
  expect(await stockOnServer(product.barcode)).toBe(4);
  expect(await stockOnServer(other.barcode)).toBe(7);

  // Typing in a text field is never a scan.
  await page.getByRole("button", { name: "Scan Barcode" }).click();
  await page.getByLabel("Enter barcode manually").pressSequentially(`${product.barcode}`, { delay: 5 });
  await expect(page.getByLabel("Enter barcode manually")).toHaveValue(product.barcode);
  await expect(page.getByTestId("current-product-name")).toHaveText(other.product_name);
});

test("a camera scan from the fake camera finds its product", async () => {
  const barcode = uniqueEan13();
  const product = await createProduct(api, { barcode, quantity_on_hand: 8 });
  const user = await createUser(api, "streamer");
  const browser = await launchWithCamera(await barcodeVideo(barcode));
  try {
    const context = await browser.newContext({ baseURL: E2E_BASE_URL });
    const page = await context.newPage();
    const wasm: string[] = [];
    page.on("request", (req) => {
      if (req.url().includes(".wasm")) wasm.push(req.url());
    });
    await signIn(page, user);
    await page.getByRole("button", { name: "Scan Barcode" }).click();
    await expect(page.getByTestId("camera-video")).toBeVisible();
    await expect(page.getByTestId("current-product-name")).toHaveText(product.product_name, { timeout: 30_000 });
    await expect(page.getByTestId("current-stock")).toHaveText("8");
    // The decoder came from our own server, not a CDN.
    for (const url of wasm) expect(url.startsWith(E2E_BASE_URL)).toBe(true);
  } finally {
    await browser.close();
  }
});

test("a camera scan of a UPC-A finds the product stored with its 12 digits (the decoder reports the EAN-13)", async () => {
  // A US sealed product: UPC-A as printed under the bars, which decoders report as an EAN-13 with a leading 0.
  const upcA = uniqueUpcA();
  const product = await createProduct(api, { barcode: upcA, quantity_on_hand: 3 });
  const user = await createUser(api, "streamer");
  const browser = await launchWithCamera(await barcodeVideo(upcA, "upca"));
  try {
    const context = await browser.newContext({ baseURL: E2E_BASE_URL });
    const page = await context.newPage();
    const lookups: string[] = [];
    page.on("request", (req) => {
      const path = new URL(req.url()).pathname;
      if (path.startsWith("/api/products/barcode/")) lookups.push(decodeURIComponent(path.slice("/api/products/barcode/".length)));
    });
    await signIn(page, user);
    await page.getByRole("button", { name: "Scan Barcode" }).click();
    await expect(page.getByTestId("camera-video")).toBeVisible();
    await expect(page.getByTestId("current-product-name")).toHaveText(product.product_name, { timeout: 30_000 });
    await expect(page.getByTestId("current-stock")).toHaveText("3");
    await expect(page.getByTestId("current-product")).toContainText(upcA);
    // Chromium's decoder reports the EAN-13 (`0` + the UPC-A) here: the lookup matched it by GTIN.
    expect(lookups.some((code) => code === upcA || code === `0${upcA}`)).toBe(true);
  } finally {
    await browser.close();
  }
});
