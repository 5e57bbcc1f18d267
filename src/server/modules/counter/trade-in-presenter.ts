import type { TradeIn, TradeInLine } from "../../../contract/counter.js";
import type { TradeInLineRow, TradeInRow } from "./counter.repo.js";

export function toTradeInLine(row: TradeInLineRow): TradeInLine {
  return {
    id: row.id,
    product_id: row.productId,
    product_name: row.productName,
    condition: row.condition,
    quantity: row.quantity,
    market_cents: row.marketCents,
    offer_cash_cents: row.offerCashCents,
    offer_credit_cents: row.offerCreditCents,
    struck: row.struck,
    note: row.note,
  };
}

/** Sums over the lines not struck: the whole offer in cash, and in credit. */
export function tradeInTotals(lines: Array<Pick<TradeInLineRow, "quantity" | "offerCashCents" | "offerCreditCents" | "struck">>) {
  let cash = 0;
  let credit = 0;
  let units = 0;
  for (const l of lines) {
    if (l.struck) continue;
    cash += l.offerCashCents * l.quantity;
    credit += l.offerCreditCents * l.quantity;
    units += l.quantity;
  }
  return { cash_cents: cash, credit_cents: credit, units };
}

export function toTradeIn(row: TradeInRow, lines: TradeInLineRow[]): TradeIn {
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customerId,
    status: row.status,
    source: row.source,
    payout: row.payout,
    cash_cents: Number(row.cashCents),
    credit_cents: Number(row.creditCents),
    note: row.note,
    lines: lines.map(toTradeInLine),
    totals: tradeInTotals(lines),
    created_by: row.createdBy,
    created_at: row.createdAt.toISOString(),
    accepted_by: row.acceptedBy,
    accepted_at: row.acceptedAt ? row.acceptedAt.toISOString() : null,
    voided_by: row.voidedBy,
    voided_at: row.voidedAt ? row.voidedAt.toISOString() : null,
    reversed_by: row.reversedBy,
    reversed_at: row.reversedAt ? row.reversedAt.toISOString() : null,
    reversal_reason: row.reversalReason,
    approved_by: row.approvedBy,
    approved_at: row.approvedAt ? row.approvedAt.toISOString() : null,
  };
}
