import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { Product } from "../src/contract/products";
import type { SalesReport } from "../src/contract/reports";
import type { Location, ShrinkageAnswer, StockTake, StockTakeReview } from "../src/contract/stock-takes";
import { adminApi, createProduct, createUser, signIn, uniqueName, userApi } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** A streamer's sales through the API (the streamer view's reason): they count as `stream` sales. */
async function sell(seller: APIRequestContext, product: Product, times: number) {
  for (let i = 0; i < times; i++) {
    const res = await seller.put(`/api/products/${product.id}/quantity`, { data: { quantity_change: -1, reason: "Streamer adjustment" } });
    expect(res.status()).toBe(200);
  }
}

async function openReports(page: Page) {
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Reports" }).click();
  await expect(page.getByRole("heading", { name: "Reports", level: 1 })).toBeVisible();
}

test("seeded sales show in the sales chart's table with the numbers the API answered", async ({ page }) => {
  const manager = await createUser(api, "manager");
  const streamer = await createUser(api, "streamer");
  const seller = await userApi(streamer);
  const card = await createProduct(api, { product_name: uniqueName("Prizm Silver"), price: 2500, quantity_on_hand: 20 });
  await sell(seller, card, 3);
  await seller.dispose();

  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  const answer = page.waitForResponse((r) => r.url().includes("/api/reports/sales?") && r.url().includes("by=day") && r.ok());
  await openReports(page);
  const sales = page.getByTestId("report-sales");
  const report = (await (await answer).json()) as SalesReport;
  // Our three sales are in it (others' tests may add theirs), today being the range's last day.
  const today = report.buckets.at(-1);
  expect(today?.start).toBe(report.to);
  expect(today?.sources.stream?.units ?? 0).toBeGreaterThanOrEqual(3);
  expect(today?.sources.stream?.revenue ?? 0).toBeGreaterThanOrEqual(7500);
  await expect(sales.getByTestId("sales-units")).toContainText(report.totals.units.toLocaleString("en-US"));

  await sales.getByRole("button", { name: "Numbers as a table" }).click();
  const table = sales.getByRole("table", { name: /Sales per day/ });
  await expect(table).toBeVisible();
  await expect(table.locator("tbody tr")).toHaveCount(report.buckets.length);
  const lastRow = table.locator("tbody tr").last();
  const cells = lastRow.locator("td");
  await expect(cells.nth(1)).toHaveText(String(today?.units.toLocaleString("en-US")));
  await expect(cells.nth(2)).toHaveText(`$${((today?.revenue ?? 0) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`);
  const streamColumn = report.sources.indexOf("stream");
  await expect(cells.nth(3 + streamColumn)).toHaveText(String(today?.sources.stream?.units.toLocaleString("en-US")));

  // The CSV holds what the table shows.
  const download = page.waitForEvent("download");
  await sales.getByRole("button", { name: /download Sales over time as CSV/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`sales-day-${report.from}-${report.to}.csv`);
  const text = await (await import("node:fs/promises")).readFile((await file.path()) as string, "utf8");
  expect(text).toContain(`${report.to},${today?.units},${((today?.revenue ?? 0) / 100).toFixed(2)}`);
});

test("a sale that takes a product to its reorder point: managers get a toast, and it joins To reorder by vendor", async ({ page }) => {
  const manager = await createUser(api, "manager");
  const streamer = await createUser(api, "streamer");
  const vendor = uniqueName("Panini");
  const product = await createProduct(api, {
    product_name: uniqueName("Donruss Optic"),
    vendor,
    quantity_on_hand: 3,
    reorder_point: 2,
    cost: 400,
  });
  await signIn(page, manager);
  await openReports(page);
  const reorder = page.getByTestId("report-reorder");
  await expect(reorder).toBeVisible();
  await expect(reorder.getByRole("button", { name: product.product_name })).toHaveCount(0);
  await expect(page.getByText("Live", { exact: true })).toBeVisible();

  const seller = await userApi(streamer);
  await sell(seller, product, 1);
  await seller.dispose();

  await expect(page.getByText(`Low stock: ${product.product_name} is at 2 (reorder point 2)`)).toBeVisible();
  const group = reorder.locator("div").filter({ has: page.getByRole("heading", { name: new RegExp(vendor) }) });
  await expect(group.getByRole("button", { name: product.product_name })).toBeVisible();
  await expect(group.getByTestId("reorder-item").filter({ hasText: product.product_name })).toContainText("2 in stock, reorder at 2");
  await expect(group.getByTestId("reorder-item").filter({ hasText: product.product_name })).toContainText("order 1");

  // The row opens the product.
  await group.getByRole("button", { name: product.product_name }).click();
  const dialog = page.getByRole("dialog", { name: "Edit Product" });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel("Reorder point")).toHaveValue("2");
});

test("a stock take a manager approves shows in Shrinkage: the day's units missing and their value at cost", async ({ page }, testInfo) => {
  const manager = await createUser(api, "manager");
  const counter = await userApi(manager);
  const name = uniqueName("Shrink case");
  const location = (await (await counter.post("/api/locations", { data: { name } })).json()) as Location;
  // Five in stock at $4.00 cost, two found: three missing, -$12.00 at cost.
  const card = await createProduct(api, { product_name: uniqueName("Shrunk"), location: name, quantity_on_hand: 5, cost: 400, price: 900 });
  const started = await counter.post("/api/stock-takes", { data: { scope: { location_ids: [location.id] } } });
  expect(started.status()).toBe(201);
  const take = ((await started.json()) as { stock_take: StockTake }).stock_take;
  const scans = await counter.post(`/api/stock-takes/${take.id}/scans`, {
    data: { scans: [{ client_scan_id: uniqueName("scan"), barcode: card.barcode, quantity: 2, location_id: location.id }] },
  });
  expect(scans.status()).toBe(200);
  const approved = await counter.post(`/api/stock-takes/${take.id}/approve`, { data: {} });
  expect(approved.status()).toBe(200);
  expect(((await approved.json()) as StockTakeReview).lines.find((l) => l.product_id === card.id)?.applied).toBe(-3);
  await counter.dispose();

  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  const answer = page.waitForResponse((r) => r.url().includes("/api/reports/shrinkage?") && r.url().includes("by=day") && r.ok());
  await openReports(page);
  const report = (await (await answer).json()) as ShrinkageAnswer;
  // Ours is in today's row (other tests may approve theirs today too).
  const today = report.rows.find((r) => r.period === report.to);
  expect(today?.stock_takes ?? 0).toBeGreaterThanOrEqual(1);
  expect(today?.missing ?? 0).toBeGreaterThanOrEqual(3);
  expect(today?.missing_at_cost ?? 0).toBeGreaterThanOrEqual(1200);

  const shrinkage = page.getByRole("region", { name: "Shrinkage" });
  await expect(shrinkage.getByTestId("shrinkage-missing")).toHaveText(report.totals.missing.toLocaleString("en-US"));
  const table = shrinkage.getByRole("table", { name: /Stock take differences approved per day/ });
  await expect(table.locator("tbody tr")).toHaveCount(report.rows.length);
  const row = table.locator("tbody tr").nth(report.rows.indexOf(today as ShrinkageAnswer["rows"][number]));
  const money = (cents: number) =>
    (cents < 0 ? "-" : "") + `$${(Math.abs(cents) / 100).toLocaleString("en-US", { minimumFractionDigits: 2 })}`;
  const day = new Date(`${report.to}T00:00:00Z`).toLocaleDateString("en-US", { month: "short", day: "numeric", timeZone: "UTC" });
  const net = today?.difference ?? 0;
  await expect(row.locator("td")).toHaveText([
    day,
    String(today?.stock_takes),
    String(today?.missing.toLocaleString("en-US")),
    String(today?.extra.toLocaleString("en-US")),
    `${net > 0 ? "+" : ""}${net.toLocaleString("en-US")}`,
    money(today?.missing_at_cost ?? 0),
    money(today?.extra_at_cost ?? 0),
    money(today?.value_at_cost ?? 0),
  ]);

  await expectNoAxeViolations(page);

  // The chart is a press away, by keyboard; on a phone the section fits the screen's width.
  await shrinkage.getByRole("button", { name: "Numbers as a table" }).focus();
  await page.keyboard.press("Enter");
  await expect(shrinkage.locator(".uplot")).toBeVisible();
  await expect(shrinkage.getByRole("img", { name: /Units missing \(below the line\) and extra per day/ })).toBeVisible();
  await page.setViewportSize({ width: 390, height: 844 });
  await shrinkage.scrollIntoViewIfNeeded();
  await expect.poll(async () => (await shrinkage.boundingBox())?.width ?? 999).toBeLessThanOrEqual(390);
  await expectNoAxeViolations(page);
  await shrinkage.screenshot({ path: testInfo.outputPath("shrinkage-phone.png") });
});

test("inventory users see the reports without money at cost; streamers have no Reports", async ({ page }) => {
  const inventory = await createUser(api, "inventory");
  await createProduct(api, { quantity_on_hand: 2, reorder_point: 5, cost: 300, vendor: uniqueName("Upper Deck") });
  await signIn(page, inventory);
  await openReports(page);
  await expect(page.getByTestId("report-stock-value")).toContainText("at price");
  await expect(page.getByTestId("report-stock-value")).not.toContainText("at cost");
  const res = await page.request.get("/api/reports/reorder");
  const body = (await res.json()) as { vendors: Array<{ products: Array<{ cost: number | null }> }> };
  expect(body.vendors.flatMap((v) => v.products.map((p) => p.cost)).every((c) => c === null)).toBe(true);

  const streamer = await createUser(api, "streamer");
  const other = await page.context().browser()?.newContext();
  const streamerPage = await other?.newPage();
  if (!streamerPage || !other) throw new Error("no second page");
  await signIn(streamerPage, streamer);
  await expect(streamerPage.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
  await expect(streamerPage.getByRole("link", { name: "Reports" })).toHaveCount(0);
  await other.close();
});

for (const theme of ["light", "dark"] as const) {
  test(`the Reports view: no axe violations in the ${theme} theme, laptop and phone; screenshots`, async ({ page }, testInfo) => {
    test.slow();
    await page.addInitScript((t) => localStorage.setItem("blez-theme", t), theme);
    const manager = await createUser(api, "manager");
    const streamer = await createUser(api, "streamer");
    const seller = await userApi(streamer);
    const show = await seller.post("/api/shows", { data: { name: uniqueName("Sunday break") } });
    const showId = ((await show.json()) as { show: { id: number } }).show.id;
    const card = await createProduct(api, { price: 1500, cost: 600, quantity_on_hand: 12, reorder_point: 10, vendor: uniqueName("Topps") });
    for (let i = 0; i < 3; i++) {
      await seller.put(`/api/products/${card.id}/quantity`, {
        data: { quantity_change: -1, reason: "Streamer adjustment", show_id: showId },
      });
    }
    await seller.post(`/api/shows/${showId}/end`);
    await seller.dispose();

    await page.setViewportSize({ width: 1440, height: 900 });
    await signIn(page, manager);
    await letLiveToastsPassClicks(page);
    await openReports(page);
    await expect(page.getByTestId("report-sales").locator(".uplot")).toBeVisible();
    await expect(page.getByTestId("report-stock-value").locator(".uplot")).toBeVisible();
    await expect(page.getByTestId("shows-table")).toBeVisible();
    await expect(page.getByTestId("reorder-item").first()).toBeVisible();
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    await page.screenshot({ path: testInfo.outputPath(`reports-laptop-${theme}.png`) });

    // Tables by keyboard: the sales numbers, the slow movers sorted by a header button.
    await page.getByTestId("report-sales").getByRole("button", { name: "Numbers as a table" }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("sales-table")).toBeVisible();
    await page.getByTestId("report-products").getByText("Slow movers").click();
    await expect(page.getByTestId("slow-movers-table")).toBeVisible();
    await page.getByTestId("slow-movers-table").getByRole("button", { name: "In stock" }).click();
    await expect(page.getByTestId("slow-movers-table").getByRole("columnheader", { name: "In stock" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await expectNoAxeViolations(page, { colours: theme === "dark" });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByTestId("report-sales").getByRole("button", { name: "Numbers as a table" }).click();
    await expect(page.getByTestId("report-sales").locator(".uplot")).toBeVisible();
    await expectNoAxeViolations(page, { colours: theme === "dark" });
    await page.screenshot({ path: testInfo.outputPath(`reports-phone-${theme}.png`), fullPage: true });
  });
}
