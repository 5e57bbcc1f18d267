import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import type { QuantityAuditEntry } from "../src/contract/audit";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { expectNoAxeViolations } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function lookUp(page: Page, barcode: string) {
  await page.getByRole("button", { name: "Scan Barcode" }).click();
  await page.getByLabel("Enter barcode manually").fill(barcode);
  await page.getByRole("button", { name: "Look Up Product" }).click();
  await expect(page.getByTestId("current-product-name")).toBeVisible();
}

/**
 * The tally the quantity audit gives: per barcode, sold and added (an Undo cancels the tap it
 * reverses) and the net change.
 */
function tallyOf(audit: QuantityAuditEntry[]): Map<string, { sold: number; added: number; net: number }> {
  const tally = new Map<string, { sold: number; added: number; net: number }>();
  for (const e of [...audit].reverse()) {
    const line = tally.get(e.barcode) ?? { sold: 0, added: 0, net: 0 };
    const undo = e.notes === "Undo";
    if (e.quantity_change < 0) {
      if (undo) line.added += e.quantity_change;
      else line.sold -= e.quantity_change;
    } else if (undo) line.sold -= e.quantity_change;
    else line.added += e.quantity_change;
    line.net += e.quantity_change;
    tally.set(e.barcode, line);
  }
  return tally;
}

test("a show: start, taps, one undo from the tally, end; the summary and the CSV match the quantity audit", async ({ page }) => {
  const user = await createUser(api, "streamer");
  const charizard = await createProduct(api, { product_name: uniqueName("Charizard ex 199/165 SIR"), quantity_on_hand: 10 });
  const booster = await createProduct(api, { product_name: uniqueName("Paldean Fates ETB"), quantity_on_hand: 5 });
  await signIn(page, user);
  await expect(page.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();

  const panel = page.getByTestId("show-panel");
  const showName = uniqueName("Sunday Pokemon break");
  await panel.getByLabel("Show name").fill(showName);
  await panel.getByRole("button", { name: "Start show" }).click();
  await expect(panel.getByTestId("show-name")).toHaveText(showName);

  await lookUp(page, charizard.barcode);
  const sold = page.getByRole("button", { name: "SOLD (-1)" });
  const add = page.getByRole("button", { name: "ADD (+1)" });
  await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("9");
  await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("8");
  await lookUp(page, booster.barcode);
  await sold.click();
  await expect(page.getByTestId("current-stock")).toHaveText("4");
  await add.click();
  await expect(page.getByTestId("current-stock")).toHaveText("5");

  // The running tally: newest first, per product.
  const tally = panel.getByRole("table", { name: `Tally of ${showName}` });
  const rows = tally.getByTestId("show-line");
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(0)).toContainText(booster.product_name);
  await expect(rows.nth(1)).toContainText(charizard.product_name);
  await expect(rows.nth(1).getByTestId("show-line-sold")).toHaveText("2");
  await expect(panel.getByTestId("show-totals")).toHaveText("Sold 3Added 1Net -2");
  await expectNoAxeViolations(page);

  // Undo the last sale of the Charizard from its line: a new +1 in the show.
  await tally.getByRole("button", { name: `Undo the last sale of ${charizard.product_name}` }).click();
  await expect(rows.filter({ hasText: charizard.product_name }).getByTestId("show-line-sold")).toHaveText("1");
  await expect(panel.getByTestId("show-totals")).toHaveText("Sold 2Added 1Net -1");
  await expect
    .poll(async () => ((await (await api.get(`/api/products/barcode/${charizard.barcode}`)).json()) as Product).quantity_on_hand)
    .toBe(9);

  await panel.getByRole("button", { name: "End show" }).click();
  await panel.getByRole("button", { name: "Yes, end show" }).click();
  const summary = page.getByRole("dialog", { name: `Show summary: ${showName}` });
  await expect(summary).toBeVisible();
  await expect(summary.getByTestId("show-totals")).toHaveText("Sold 2Added 1Net -1");
  await expectNoAxeViolations(page);
  const download = page.waitForEvent("download");
  await summary.getByRole("link", { name: "Download CSV" }).click();
  const csv = readFileSync(await (await download).path(), "utf8");

  // What the quantity audit says about the show.
  const shows = (await (await api.get("/api/shows?limit=200")).json()) as Array<{ id: number; name: string }>;
  const show = shows.find((s) => s.name === showName);
  expect(show).toBeDefined();
  const audit = (await (await api.get(`/api/audit/quantity?show_id=${show?.id}`)).json()) as QuantityAuditEntry[];
  expect(audit).toHaveLength(5);
  expect(audit.every((e) => e.show_name === showName)).toBe(true);
  const expected = tallyOf(audit);
  expect(expected.get(charizard.barcode)).toEqual({ sold: 1, added: 0, net: -1 });
  expect(expected.get(booster.barcode)).toEqual({ sold: 1, added: 1, net: 0 });

  const lines = csv
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");
  expect(lines[0]).toBe("product,barcode,sold,added,net,revenue");
  const fromCsv = new Map(
    lines.slice(1).map((line) => {
      const [, barcode, s, a, n] = line.split(",");
      return [barcode, { sold: Number(s), added: Number(a), net: Number(n) }] as const;
    }),
  );
  expect(fromCsv).toEqual(expected);
  // The summary's rows say the same.
  for (const [barcode, line] of expected) {
    const row = summary.getByTestId("show-line").filter({ hasText: barcode });
    await expect(row.getByTestId("show-line-sold")).toHaveText(String(line.sold));
    await expect(row.getByTestId("show-line-added")).toHaveText(String(line.added));
  }

  // The show is over: the next taps are in no show, and it is listed with its summary.
  await summary.getByRole("button", { name: "Close" }).first().click();
  await expect(panel.getByLabel("Show name")).toBeVisible();
  await panel.getByRole("button", { name: "Past shows" }).click();
  await panel.getByRole("button", { name: new RegExp(showName) }).click();
  await expect(page.getByRole("dialog", { name: `Show summary: ${showName}` }).getByTestId("show-totals")).toHaveText(
    "Sold 2Added 1Net -1",
  );
});

test("a manager sees every show, and other screens hear that a show started", async ({ browser }) => {
  const streamer = await createUser(api, "streamer");
  const manager = await createUser(api, "manager");
  const managerContext = await browser.newContext();
  const managerPage = await managerContext.newPage();
  const streamerContext = await browser.newContext();
  const streamerPage = await streamerContext.newPage();
  try {
    await signIn(managerPage, manager);
    await managerPage.getByRole("link", { name: "Streamer View" }).click();
    await expect(managerPage.getByTestId("live-state")).toHaveText("Live");
    await signIn(streamerPage, streamer);
    const name = uniqueName("Friday break");
    await streamerPage.getByTestId("show-panel").getByLabel("Show name").fill(name);
    await streamerPage.getByTestId("show-panel").getByRole("button", { name: "Start show" }).click();
    await expect(managerPage.getByText(`${streamer.username} started the show "${name}"`)).toBeVisible();
    await streamerPage.getByTestId("show-panel").getByRole("button", { name: "End show" }).click();
    await streamerPage.getByTestId("show-panel").getByRole("button", { name: "Yes, end show" }).click();
    await expect(managerPage.getByText(`${streamer.username} ended the show "${name}"`)).toBeVisible();
    const panel = managerPage.getByTestId("show-panel");
    await panel.getByRole("button", { name: "Past shows" }).click();
    await expect(panel.getByRole("list", { name: "Past shows" })).toContainText(name);
  } finally {
    await managerContext.close();
    await streamerContext.close();
  }
});
