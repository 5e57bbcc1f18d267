import {
  BUYLIST_HONEYPOT,
  BUYLIST_MESSAGES,
  BUYLIST_PER_SUBMISSION_MAX,
  type BuylistAnswer,
  type BuylistItem,
  type BuylistOffer,
  type BuylistReceipt,
} from "../../../contract/buylist.js";
import { type BuySettings, offerFor, TRADE_IN_NOTE_MAX } from "../../../contract/counter.js";
import { CONDITIONS, type Condition } from "../../../contract/rules.js";
import { badRequest, conflict } from "../../app-error.js";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { withTransaction } from "../../db/tx.js";
import { type BuylistRow, buylistRows, customerByEmail, insertOnlineTradeIn } from "./buylist.repo.js";
import { insertCustomer, insertCustomerAudit, type OfferRow, offerRows, replaceTradeInLines } from "./counter.repo.js";
import { tradeInTotals } from "./trade-in-presenter.js";
import { buySettingsOf, offerLines } from "./trade-ins.service.js";

/**
 * The public buylist (issue 40): no sign-in, so no actor. What it answers is the shop's offer per
 * condition and the most it takes of a card in one submission (the units it still wants, at most
 * BUYLIST_PER_SUBMISSION_MAX); never the stock on hand, the buy limit or any cost.
 */

const ONLINE = "Online buylist";

/** The market price of one unit in a condition: the feed's price for it, Near Mint's the product's market. */
function marketIn(row: Pick<OfferRow, "market" | "by_condition">, condition: Condition): number | null {
  if (condition === "Near Mint") return row.market;
  const price = row.by_condition?.[condition];
  return typeof price === "number" ? price : null;
}

/** The units the shop takes of a product in one submission (0: none); null when it does not buy it at all. */
function mostOf(row: OfferRow | undefined, settings: BuySettings): number | null {
  if (!row?.is_active || row.buy_limit === null || row.market === null) return null;
  const offer = offerFor(row, row.market, settings);
  if (offer.darklisted || offer.wanted === null || offer.wanted <= 0) return null;
  return Math.min(offer.wanted, BUYLIST_PER_SUBMISSION_MAX);
}

function toItem(row: BuylistRow, settings: BuySettings): BuylistItem | null {
  const most = mostOf(row, settings);
  if (most === null) return null;
  const offers: BuylistOffer[] = [];
  for (const condition of CONDITIONS) {
    const market = marketIn(row, condition);
    if (market === null) continue;
    const offer = offerFor(row, market, settings);
    if (offer.cash > 0 || offer.credit > 0) offers.push({ condition, cash_cents: offer.cash, credit_cents: offer.credit });
  }
  if (offers.length === 0) return null;
  // Only what a customer may see: no stock, buy limit or cost.
  return {
    product_id: row.id,
    product_name: row.product_name,
    vendor: row.vendor,
    set_name: row.set_name,
    card_number: row.card_number,
    offers,
    max_quantity: most,
  };
}

/** A page of what the shop is buying, by name; `q` searches the name and the set. */
export async function buylist(db: Db, config: Config, query: { q?: string; limit: number; offset: number }): Promise<BuylistAnswer> {
  const settings = await buySettingsOf(db);
  const rows = await buylistRows(db, {
    q: query.q || undefined,
    darklist: settings.darklist,
    currency: config.CURRENCY,
    limit: query.limit,
    offset: query.offset,
  });
  const items = rows
    .slice(0, query.limit)
    .map((r) => toItem(r, settings))
    .filter((i): i is BuylistItem => i !== null);
  return { items, has_more: rows.length > query.limit, currency: config.CURRENCY };
}

export interface SubmissionInput {
  name: string;
  email: string;
  phone: string | null;
  payout: "cash" | "credit";
  lines: Array<{ product_id: number; condition: Condition; quantity: number }>;
  note: string | null;
  [BUYLIST_HONEYPOT]?: string;
}

/**
 * A customer's submission: a draft trade-in marked online (staff see it in the Counter's drafts,
 * adjust it and accept it when the cards arrive), for the customer with this email (matched, any
 * case, never changed) or a new one. Each card must be on the buylist now (a darklisted one, or one
 * the shop wants no more of, refuses the whole submission: 409) and within the units it takes; the
 * offers are made as at the counter (trade-ins.service.ts offerLines). A filled honeypot: 400.
 */
export async function submitBuylist(db: Db, config: Config, input: SubmissionInput, ip: string): Promise<BuylistReceipt> {
  if (input[BUYLIST_HONEYPOT]) throw badRequest(BUYLIST_MESSAGES.refused);
  const seen = new Set<string>();
  input.lines.forEach((line, index) => {
    const key = `${line.product_id}:${line.condition}`;
    if (seen.has(key)) throw badRequest(BUYLIST_MESSAGES.duplicate(index));
    seen.add(key);
  });
  return withTransaction(db, async (tx) => {
    const settings = await buySettingsOf(tx);
    const rows = await offerRows(tx, [...new Set(input.lines.map((l) => l.product_id))], config.CURRENCY);
    const taken = new Map<number, number>();
    input.lines.forEach((line, index) => {
      const most = mostOf(rows.get(line.product_id), settings);
      if (most === null) throw conflict(BUYLIST_MESSAGES.notBuying(index));
      const total = (taken.get(line.product_id) ?? 0) + line.quantity;
      if (total > most) throw conflict(BUYLIST_MESSAGES.tooMany(index, most));
      taken.set(line.product_id, total);
    });

    const found = await customerByEmail(tx, input.email);
    const customerId =
      found?.id ??
      (await (async () => {
        const created = await insertCustomer(tx, {
          name: input.name,
          email: input.email,
          phone: input.phone,
          notes: null,
          createdBy: ONLINE,
        });
        await insertCustomerAudit(tx, {
          customerId: created.id,
          action: "created",
          fields: ["name", "email", ...(input.phone ? ["phone"] : [])],
          userId: null,
          userName: ONLINE,
          ip,
        });
        return created.id;
      })());

    const lines = await offerLines(
      { config },
      tx,
      input.lines.map((l) => ({ product_id: l.product_id, condition: l.condition, quantity: l.quantity, struck: false })),
    );
    const totals = tradeInTotals(lines);
    // Who sent it, as typed: a matched customer's record is not changed by a form anyone can fill.
    const from = `From ${input.name} <${input.email}>${input.phone ? `, ${input.phone}` : ""}`;
    const row = await insertOnlineTradeIn(tx, {
      customerId,
      payout: input.payout,
      cashCents: input.payout === "cash" ? totals.cash_cents : 0,
      creditCents: input.payout === "credit" ? totals.credit_cents : 0,
      note: (input.note ? `${from}: ${input.note}` : from).slice(0, TRADE_IN_NOTE_MAX),
    });
    await replaceTradeInLines(tx, row.id, lines);
    return {
      reference: row.number,
      status: "pending" as const,
      units: totals.units,
      cash_cents: totals.cash_cents,
      credit_cents: totals.credit_cents,
    };
  });
}
