import { describe, expect, it } from "vitest";
import { formatMoney } from "../../../contract/money";
import type { Order } from "../../../contract/orders";
import { saleReceiptLines, saleReceiptPdf } from "./receipt-pdf";

const order: Order = {
  id: 31,
  channel: "counter",
  external_id: "sale-2026-03-14-a1b2c3d4e5f6",
  status: "completed",
  lines: [
    { product_id: 1, barcode: "2000000000011", product_name: "Ruby Dragon", quantity: 1, unit_price: 550 },
    { product_id: 2, barcode: "2000000000028", product_name: "Opal Knight", quantity: 2, unit_price: 250 },
  ],
  total: 1050,
  note: null,
  created_at: "2026-03-14T10:00:00.000Z",
  created_by: "mia",
  cancelled_at: null,
  cancelled_by: null,
  customer_id: 5,
  payments: [
    { method: "credit", amount: 700 },
    { method: "card", amount: 350 },
  ],
};
const money = (c: number) => formatMoney(c, "USD");

describe("a counter sale's receipt", () => {
  it("says the shop, the sale's number, the lines, the total, each payment and the credit left", async () => {
    const lines = saleReceiptLines({ shopName: "Blez Inventory", order, customer: "Ada Park", money, creditLeft: 0 });
    expect(lines[0]).toBe("Blez Inventory");
    expect(lines[1]).toBe("Sale #31");
    expect(lines).toContain("Customer: Ada Park");
    expect(lines).toContain("1 x Ruby Dragon: $5.50 each, $5.50");
    expect(lines).toContain("2 x Opal Knight: $2.50 each, $5.00");
    expect(lines).toContain("Total: $10.50");
    expect(lines).toContain("Paid by store credit: $7.00");
    expect(lines).toContain("Paid by card: $3.50");
    expect(lines).toContain("Store credit left: $0.00");
    const pdf = await saleReceiptPdf({ shopName: "Blez Inventory", order, customer: null, money });
    expect(new TextDecoder().decode(pdf.slice(0, 5))).toBe("%PDF-");
  });
});
