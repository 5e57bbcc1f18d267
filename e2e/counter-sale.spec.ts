import { readFileSync } from "node:fs";
import { type APIRequestContext, expect, test } from "@playwright/test";
import type { CreditLedger, Customer } from "../src/contract/counter";
import type { Order } from "../src/contract/orders";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

async function stockOf(barcode: string): Promise<number> {
  return ((await (await api.get(`/api/products/barcode/${barcode}`)).json()) as Product).quantity_on_hand;
}

test("a counter sale in Orders: two cards scanned, paid partly with a customer's store credit, the stock and balance after, the receipt", async ({
  page,
}) => {
  const first = await createProduct(api, { product_name: uniqueName("Sale card"), quantity_on_hand: 3, price: 800 });
  const second = await createProduct(api, { product_name: uniqueName("Sale card"), quantity_on_hand: 3, price: 450 });
  const name = uniqueName("Grace Counter");
  const created = await api.post("/api/customers", { data: { name } });
  expect(created.status()).toBe(201);
  const { customer } = (await created.json()) as { customer: Customer };
  expect((await api.post(`/api/customers/${customer.id}/credit`, { data: { amount: 1000, reason: "Opening credit" } })).status()).toBe(201);

  await signIn(page, await createUser(api, "manager"));
  await letLiveToastsPassClicks(page);
  await page.goto("/orders");
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await page.getByRole("button", { name: "New sale" }).click();
  const sale = page.getByTestId("counter-sale");
  await expect(sale.getByText("No cards yet: scan a barcode or search by name.")).toBeVisible();

  // Two cards as a USB scanner types them into the focused scan field, the second twice.
  const field = sale.getByLabel("Scan a barcode or search by name");
  await expect(field).toBeFocused();
  for (const code of [first.barcode, second.barcode, second.barcode]) {
    await field.pressSequentially(code, { delay: 5 });
    await field.press("Enter");
    await expect(field).toHaveValue("");
  }
  await expect(sale.getByTestId("sale-announcement")).toHaveText(`Added ${second.product_name} at $4.50`);
  await expect(sale.getByTestId("sale-line")).toHaveCount(2);
  await expect(sale.getByLabel(`Quantity of ${second.product_name}`)).toHaveValue("2");
  await expect(sale.getByTestId("sale-total")).toHaveText("Total: $17.00");

  // The customer, with their balance; part in store credit, the rest by card.
  await sale.getByLabel("Find a customer").fill(name);
  await sale.getByRole("button", { name: new RegExp(name) }).click();
  await expect(sale.getByTestId("sale-balance")).toHaveText(`${name} has $10.00 in store credit.`);
  await sale.getByRole("radio", { name: "Split" }).check();
  await expect(sale.getByLabel("Store credit part")).toHaveValue("10.00");
  await sale.getByLabel("Store credit part").fill("6.00");
  await sale.getByLabel("The rest by").selectOption("card");
  await expectNoAxeViolations(page);
  await sale.getByRole("button", { name: "Complete sale" }).click();

  const done = sale.getByTestId("sale-done");
  await expect(done).toContainText(/Sale #\d+ complete/);
  await expect(done).toContainText("3 cards sold for $17.00: $6.00 by store credit, $11.00 by card.");
  await expect(sale.getByTestId("sale-credit-left")).toHaveText(`${name} has $4.00 in store credit left.`);
  expect(await stockOf(first.barcode)).toBe(2);
  expect(await stockOf(second.barcode)).toBe(1);
  const ledger = (await (await api.get(`/api/customers/${customer.id}/credit`)).json()) as CreditLedger;
  expect(ledger.balance).toBe(400);
  expect(ledger.entries[0]).toMatchObject({ kind: "order", amount: -600 });
  const orders = (await (await api.get("/api/orders?channel=counter&limit=200")).json()) as Order[];
  const mine = orders.find((o) => o.id === ledger.entries[0]?.order_id);
  expect(mine).toMatchObject({ channel: "counter", total: 1700, status: "completed" });
  expect(mine?.external_id).toMatch(/^sale-\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/);

  // The receipt: a PDF download.
  const download = page.waitForEvent("download");
  await done.getByRole("button", { name: "Print receipt" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe(`sale-${mine?.id}.pdf`);
  expect(
    readFileSync(await file.path())
      .subarray(0, 5)
      .toString(),
  ).toBe("%PDF-");

  // The sale is in the list; a new sale starts empty.
  await expect(page.getByRole("list", { name: "Orders" })).toContainText(`counter · ${mine?.external_id}`);
  await done.getByRole("button", { name: "New sale" }).click();
  await expect(sale.getByText("No cards yet: scan a barcode or search by name.")).toBeVisible();
});
