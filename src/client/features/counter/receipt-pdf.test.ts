import { describe, expect, it } from "vitest";
import type { TradeIn } from "../../../contract/counter";
import { formatMoney } from "../../../contract/money";
import { printable } from "../../lib/pdf";
import { receiptLines, receiptPdf } from "./receipt-pdf";

const line = (id: number, fields: Partial<TradeIn["lines"][number]>) => ({
  id,
  product_id: id,
  product_name: `Card ${id}`,
  condition: "Near Mint" as const,
  quantity: 1,
  market_cents: 1000,
  offer_cash_cents: 500,
  offer_credit_cents: 650,
  struck: false,
  note: null,
  ...fields,
});

const tradeIn: TradeIn = {
  id: 3,
  number: 17,
  customer_id: 5,
  status: "accepted",
  source: "counter",
  payout: "split",
  cash_cents: 500,
  credit_cents: 390,
  note: null,
  lines: [line(1, { quantity: 2 }), line(2, { struck: true, product_name: "Struck card" })],
  totals: { cash_cents: 1000, credit_cents: 1300, units: 2 },
  created_by: "sam",
  created_at: "2026-03-14T10:00:00.000Z",
  accepted_by: "sam",
  accepted_at: "2026-03-14T10:05:00.000Z",
  voided_by: null,
  voided_at: null,
  reversed_by: null,
  reversed_at: null,
  reversal_reason: null,
  approved_by: null,
  approved_at: null,
};
const input = {
  shopName: "Blez Inventory",
  tradeIn,
  customer: "Zoë Ōtsuki",
  money: (cents: number) => formatMoney(cents, "USD", "en-US"),
  date: new Date("2026-03-14T10:05:00.000Z"),
};

describe("the trade-in receipt", () => {
  it("says the shop, number, customer, the lines bought (struck ones left out), the totals and the payout", () => {
    const lines = receiptLines(input);
    expect(lines.slice(0, 2)).toEqual(["Blez Inventory", "Trade-in #17"]);
    expect(lines).toContain("Customer: Zoë ?tsuki");
    expect(lines).toContain("2 x Card 1 (Near Mint): $10.00 cash / $13.00 credit");
    expect(lines.join("\n")).not.toContain("Struck card");
    expect(lines).toContain("Total offer: $10.00 in cash or $13.00 in store credit");
    expect(lines).toContain("Payout: Split: cash and store credit");
    expect(lines).toContain("Paid in cash: $5.00");
    expect(lines).toContain("Store credit written: $3.90");
  });

  it("is a PDF, whatever characters the names hold", async () => {
    const pdf = await receiptPdf({ ...input, tradeIn: { ...tradeIn, lines: [line(1, { product_name: "リザードン ★ 🐉" })] } });
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    expect(printable("€5 — ok")).toBe("€5 ? ok");
  });
});
