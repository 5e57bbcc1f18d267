import { type APIRequestContext, type Browser, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import type { Location } from "../src/contract/stock-takes";
import { adminApi, createProduct, createUser, signIn, type TestUser, uniqueEan13, uniqueName } from "./support/api";
import { E2E_BASE_URL } from "./support/env";
import { barcodeVideo, launchWithCamera } from "./support/fake-camera";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

interface Shelf {
  location: Location;
  /** Stock 2, counted 2: scanned, then scanned again ("already counted 1, add one more?": yes). */
  found: Product;
  /** Stock 4: scanned once, one sold (a tap) while the count runs, then a stack of 2 ("x 2"): expected 3, counted 3. */
  sold: Product;
  /** Stock 1, counted 2: one extra. */
  extra: Product;
  /** Stock 2, never scanned. */
  missing: Product;
  /** Sixteen more at home here, each counted as stocked (1, 2 or 3): the location holds 20 products. */
  plain: Product[];
  /** At home in another location, found here. */
  elsewhere: Product;
  unknownBarcode: string;
}

async function shelf(): Promise<Shelf> {
  const name = uniqueName("Case");
  const res = await api.post("/api/locations", { data: { name } });
  expect(res.status()).toBe(201);
  const location = (await res.json()) as Location;
  const other = uniqueName("Binder");
  const product = (fields: Partial<Product>) => createProduct(api, { location: name, price: 1000, cost: 400, ...fields });
  return {
    location,
    found: await product({ product_name: uniqueName("Found"), quantity_on_hand: 2 }),
    sold: await product({ product_name: uniqueName("Sold"), quantity_on_hand: 4 }),
    extra: await product({ product_name: uniqueName("Extra"), quantity_on_hand: 1 }),
    missing: await product({ product_name: uniqueName("Missing"), quantity_on_hand: 2 }),
    plain: await Promise.all(
      Array.from({ length: 16 }, (_, i) => product({ product_name: uniqueName(`Shelf ${i + 1}`), quantity_on_hand: (i % 3) + 1 })),
    ),
    elsewhere: await createProduct(api, { product_name: uniqueName("Elsewhere"), location: other, quantity_on_hand: 1 }),
    unknownBarcode: uniqueEan13(),
  };
}

const scanField = (page: Page) => page.getByLabel("Scan or type a barcode");
const result = (page: Page) => page.getByTestId("scan-result");

/** What a USB scanner does: types the code into the focused field and presses Enter. */
async function usbScan(page: Page, text: string) {
  await expect(scanField(page)).toBeFocused();
  await page.keyboard.type(text);
  await page.keyboard.press("Enter");
}

/** From the Stock take view: a count of the shelf's location, on its counting screen. */
async function startCount(page: Page, s: Shelf, theme: "light" | "dark"): Promise<number> {
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Stock take" }).click();
  await expect(page.getByRole("heading", { name: "Stock take", level: 1 })).toBeVisible();
  await page.getByRole("checkbox", { name: s.location.name, exact: true }).check();
  await expectNoAxeViolations(page, { colours: theme === "dark" });
  await page.getByRole("button", { name: "Start stock take" }).click();
  await expect(page).toHaveURL(/\/stock-takes\/\d+$/);
  await expect(page.getByLabel("Counting in")).toHaveValue(String(s.location.id));
  return Number(new URL(page.url()).pathname.split("/").pop());
}

/** The rest of the count, typed as a USB scanner does (the first product may have been counted by the camera). */
async function countTheRest(page: Page, s: Shelf) {
  // Sold during the count: counted once, a tap sells one, then the last 2 as a stack typed before the scan.
  await usbScan(page, s.sold.barcode);
  await expect(result(page)).toContainText(`Found: ${s.sold.product_name}. Counted 1.`);
  const tap = await api.put(`/api/products/${s.sold.id}/quantity`, { data: { quantity_change: -1, reason: "Sold" } });
  expect(tap.status()).toBe(200);
  await usbScan(page, "x 2");
  await expect(page.getByTestId("pending-count")).toContainText("Next scan counts 2");
  await usbScan(page, s.sold.barcode);
  await expect(result(page)).toHaveAttribute("data-result", "question");
  await expect(result(page)).toContainText(`Already counted 1: ${s.sold.barcode}. Add 2 more?`);
  // Enter on the empty field: yes.
  await page.keyboard.press("Enter");
  await expect(result(page)).toContainText(`Already counted 1: ${s.sold.product_name}. Counted 3 now.`);

  // One extra: a stack typed with its barcode.
  await usbScan(page, `${s.extra.barcode} x 2`);
  await expect(result(page)).toHaveAttribute("data-result", "found");
  await expect(result(page)).toContainText(`Found: ${s.extra.product_name}. Counted 2.`);

  // The rest of the shelf, each as a stack typed with its barcode.
  for (const p of s.plain) {
    await usbScan(page, `${p.barcode} x ${p.quantity_on_hand}`);
    await expect(result(page)).toContainText(`Found: ${p.product_name}. Counted ${p.quantity_on_hand}.`);
  }

  await usbScan(page, s.elsewhere.barcode);
  await expect(result(page)).toHaveAttribute("data-result", "new_to_location");
  await expect(result(page)).toContainText(`New to this location: ${s.elsewhere.product_name}. Counted 1.`);

  await usbScan(page, s.unknownBarcode);
  await expect(result(page)).toHaveAttribute("data-result", "unknown");
  await expect(result(page)).toContainText(`Unknown barcode ${s.unknownBarcode}.`);

  await expect(page.getByTestId("running-totals")).toContainText("21 products, 40 items");
  await expect(page.getByTestId("waiting-scans")).toHaveText("Every scan is sent.");
}

/** Finish counting, the review as the counter (an inventory user) sees it: read-only. */
async function finishAndReview(page: Page, s: Shelf) {
  await page.getByRole("button", { name: "Finish counting" }).click();
  await expect(page).toHaveURL(/\/stock-takes\/\d+\/review$/);
  await expect(page.getByRole("heading", { name: /: review$/, level: 1 })).toBeVisible();
  const line = (p: Product) => page.getByTestId("review-line").filter({ hasText: p.product_name });
  // Expected, counted and difference (the columns after the product and its location), and its state.
  const figures = async (p: Product, expected: string[], state: string) => {
    const cells = line(p).locator("td");
    await expect(cells.nth(2)).toHaveText(expected[0] as string);
    await expect(cells.nth(3)).toHaveText(expected[1] as string);
    await expect(cells.nth(4)).toHaveText(expected[2] as string);
    await expect(cells.nth(7)).toHaveText(state);
  };
  await figures(s.found, ["2", "2", "0"], "Counted");
  await figures(s.sold, ["3", "3", "0"], "Counted");
  await figures(s.extra, ["1", "2", "+1"], "Counted");
  await figures(s.missing, ["2", "0", "-2"], "Never scanned");
  await figures(s.elsewhere, ["1", "1", "0"], "Found elsewhere");
  for (const p of s.plain) {
    const n = String(p.quantity_on_hand);
    await figures(p, [n, n, "0"], "Counted");
  }
  await expect(line(s.missing).locator("td").nth(5)).toHaveText("-$8.00");
  await expect(page.getByRole("region", { name: "Expected but never scanned (1)" })).toContainText(s.missing.product_name);
  await expect(page.getByRole("region", { name: "Found in another location (1)" })).toContainText(s.elsewhere.product_name);
  await expect(page.getByRole("region", { name: "Unknown barcodes (1)" })).toContainText(s.unknownBarcode);
  await expect(page.getByRole("button", { name: "Approve all" })).toHaveCount(0);
  await expect(page.getByText("A manager approves the differences; you see them here.")).toBeVisible();
}

/** A manager approves all; the stock is the count's, and each change is in the product's audit with the session. */
async function approveAsManager(browser: Browser, manager: TestUser, id: number, s: Shelf) {
  const context = await browser.newContext({ baseURL: E2E_BASE_URL });
  try {
    const page = await context.newPage();
    await signIn(page, manager);
    await letLiveToastsPassClicks(page);
    await page.goto(`/stock-takes/${id}/review`);
    await page.getByRole("button", { name: "Approve all" }).click();
    await expect(page.getByText("Approved", { exact: true })).toBeVisible();
    const stock = async (p: Product) => ((await (await api.get(`/api/products/barcode/${p.barcode}`)).json()) as Product).quantity_on_hand;
    expect(await stock(s.found)).toBe(2);
    expect(await stock(s.sold)).toBe(3);
    expect(await stock(s.extra)).toBe(2);
    expect(await stock(s.missing)).toBe(0);
    expect(await stock(s.elsewhere)).toBe(1);
    for (const p of s.plain) expect(await stock(p)).toBe(p.quantity_on_hand);
    const number = Number(/#(\d+)/.exec((await page.getByRole("heading", { level: 1 }).textContent()) ?? "")?.[1]);
    await page.getByRole("button", { name: `Audit of ${s.missing.product_name}` }).click();
    const audit = page.getByRole("dialog");
    await audit.getByRole("tab", { name: "Quantity Changes" }).click();
    await expect(audit).toContainText(`Stock take #${number}`);
  } finally {
    await context.close();
  }
}

test("counting with a USB scanner: scan after scan in the field, a sale during the count, offline scans sent once back, live totals on another device, review, a manager's approval, stock and audit", async ({
  page,
  browser,
}) => {
  test.slow();
  const s = await shelf();
  const counter = await createUser(api, "inventory");
  const manager = await createUser(api, "manager");
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, counter);
  await letLiveToastsPassClicks(page);
  const id = await startCount(page, s, "light");

  await usbScan(page, s.found.barcode);
  await expect(result(page)).toHaveAttribute("data-result", "found");
  await expect(result(page)).toContainText(`Found: ${s.found.product_name}. Counted 1.`);
  // Again: asked before it counts; Escape says no, a second yes adds one.
  await usbScan(page, s.found.barcode);
  await expect(result(page)).toContainText(`Already counted 1: ${s.found.barcode}. Add one more?`);
  await page.keyboard.press("Escape");
  await expect(result(page)).toContainText(`Not counted again: ${s.found.barcode}.`);
  await expectNoAxeViolations(page);

  // Offline: the scan waits on this device, and goes once the browser is back online.
  await page.context().setOffline(true);
  await usbScan(page, s.found.barcode);
  await page.keyboard.press("Enter");
  await expect(result(page)).toHaveAttribute("data-result", "queued");
  await expect(page.getByTestId("waiting-scans")).toContainText("1 scan waiting to be sent.");
  await page.context().setOffline(false);
  await expect(page.getByTestId("waiting-scans")).toHaveText("Every scan is sent.");
  await expect(result(page)).toContainText(`Already counted 1: ${s.found.product_name}. Counted 2 now.`);

  // Another device watching the same session sees the totals move live.
  const watching = await browser.newContext({ baseURL: E2E_BASE_URL });
  try {
    const other = await watching.newPage();
    await signIn(other, manager);
    await other.goto(`/stock-takes/${id}`);
    await expect(other.getByTestId("running-totals")).toContainText("1 product, 2 items");
    await countTheRest(page, s);
    await expect(other.getByTestId("running-totals")).toContainText("21 products, 40 items");
  } finally {
    await watching.close();
  }

  await finishAndReview(page, s);
  await expectNoAxeViolations(page);
  // The CSV of the review, made in the browser.
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download CSV" }).click();
  const csv = await (await download).createReadStream();
  let text = "";
  for await (const chunk of csv) text += chunk;
  expect(text.split("\r\n")[0]).toBe(
    "status,product_id,barcode,name,location,found_in,expected,counted,difference,value_at_cost,value_at_price,applied",
  );
  expect(text).toContain(`missing,${s.missing.id},${s.missing.barcode},${s.missing.product_name},${s.location.name},,2,0,-2,-8.00,-20.00,`);
  // And as a PDF, made in the browser too.
  const pdfDownload = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download PDF" }).click();
  const pdf = await pdfDownload;
  expect(pdf.suggestedFilename()).toBe(`stock-take-${id}.pdf`);
  let head = "";
  for await (const chunk of await pdf.createReadStream()) {
    head += String(chunk).slice(0, 5);
    break;
  }
  expect(head).toBe("%PDF-");

  await approveAsManager(browser, manager, id, s);
});

test("counting on a phone with the camera (dark theme): the first product by camera, the rest typed, review, a manager's approval, stock and audit", async () => {
  test.slow();
  const s = await shelf();
  const counter = await createUser(api, "inventory");
  const manager = await createUser(api, "manager");
  const browser = await launchWithCamera(await barcodeVideo(s.found.barcode));
  try {
    const context = await browser.newContext({
      baseURL: E2E_BASE_URL,
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    await context.addInitScript(() => localStorage.setItem("blez-theme", "dark"));
    const page = await context.newPage();
    await signIn(page, counter);
    await letLiveToastsPassClicks(page);
    const id = await startCount(page, s, "dark");
    await expectNoAxeViolations(page, { colours: true });

    await page.getByRole("button", { name: "Scan with camera" }).click();
    await expect(page.getByTestId("camera-video")).toBeVisible();
    await expect(result(page)).toContainText(`Found: ${s.found.product_name}. Counted 1.`, { timeout: 30_000 });
    // The camera still sees it a moment later: asked, not counted; a tap says yes.
    await expect(result(page)).toHaveAttribute("data-result", "question", { timeout: 30_000 });
    await page.getByRole("button", { name: "Stop camera" }).click();
    await page.getByRole("button", { name: "Add one more" }).click();
    await expect(result(page)).toContainText(`Already counted 1: ${s.found.product_name}. Counted 2 now.`);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    await countTheRest(page, s);
    await finishAndReview(page, s);
    await expectNoAxeViolations(page, { colours: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await approveAsManager(browser, manager, id, s);
  } finally {
    await browser.close();
  }
});
