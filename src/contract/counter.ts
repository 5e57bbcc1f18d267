// The counter (issue 40): customers, store credit as a ledger, trade-ins and the shop's buy settings.
// Money is whole cents of the shop's currency; percents are whole numbers (60 = 60 %).
import { z } from "zod";
import { ID_MAX } from "./common.js";
import { FINISHES } from "./market.js";
import { barcodeSchema, vendorSchema } from "./products.js";
import { CONDITIONS, MONEY_MAX_CENTS, NAME_MAX, QUANTITY_MAX_EXCLUSIVE, SET_NAME_MAX } from "./rules.js";

export const CUSTOMER_NAME_MAX = 200;
export const CUSTOMER_EMAIL_MAX = 254;
export const CUSTOMER_PHONE_MAX = 50;
export const CUSTOMER_NOTES_MAX = 2000;
export const CREDIT_REASON_MAX = 500;
export const TRADE_IN_LINES_MAX = 500;
export const TRADE_IN_NOTE_MAX = 1000;
export const BUY_OVERRIDES_MAX = 50;
export const BUY_LIST_MAX = 5000;
export const BUY_PERCENT_MAX = 200;
export const CUSTOMERS_LIMIT_DEFAULT = 50;
export const CUSTOMERS_LIMIT_MAX = 200;

export const CREDIT_KINDS = ["trade_in", "order", "adjustment", "expiry"] as const;
export type CreditKind = (typeof CREDIT_KINDS)[number];
export const TRADE_IN_STATUSES = ["draft", "accepted", "void", "reversed"] as const;
export type TradeInStatus = (typeof TRADE_IN_STATUSES)[number];
/** Where a trade-in came from: made at the counter, or a customer's submission of the public buylist. */
export const TRADE_IN_SOURCES = ["counter", "online"] as const;
export type TradeInSource = (typeof TRADE_IN_SOURCES)[number];
export const PAYOUTS = ["cash", "credit", "split"] as const;
export type Payout = (typeof PAYOUTS)[number];
export const PAYMENT_METHODS = ["cash", "card", "credit"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** The quantity audit reason of a trade-in's lines. */
export const tradeInReason = (number: number) => `Trade-in #${number}`;
/** The quantity audit reason of a reversed trade-in's lines taken back out. */
export const tradeInReversedReason = (number: number) => `Trade-in #${number} reversed`;
export { ERASED_CUSTOMER_NAME } from "./customer-rules.js";

export const COUNTER_MESSAGES = {
  customerNotFound: "Customer not found",
  customerErased: "This customer was erased",
  nameRequired: "Name is required",
  email: "Email must be an email address",
  reasonRequired: "A reason is required",
  amountNonZero: "The amount must not be 0",
  creditShort: (balance: number, wanted: number) =>
    `Not enough store credit: the balance is ${balance} cents, ${wanted} cents were asked for`,
  tradeInNotFound: "Trade-in not found",
  notAccepted: (status: TradeInStatus) =>
    `This trade-in is ${status === "reversed" ? "reversed already" : status === "void" ? "void" : "a draft"}: only an accepted one is reversed`,
  lineNotReversible: (line: number) => `Line ${line + 1}: its product is disabled or no longer holds the units: nothing was reversed`,
  reversalUncovered: (balance: number) =>
    `The customer's store credit (${balance} cents) no longer covers this trade-in's credit: nothing was reversed`,
  notApprovable: (why: "not_online" | "approved" | TradeInStatus) =>
    why === "not_online"
      ? "This trade-in was made at the counter: only an online list is approved"
      : why === "approved"
        ? "This online list is approved already"
        : `This trade-in is ${why === "draft" ? "void" : why} already: only a pending online list is approved`,
  notDraft: (status: TradeInStatus) => `This trade-in is ${status === "draft" ? "void" : status} already: only a draft changes`,
  noLines: "A trade-in needs at least one line that is not struck",
  creditNeedsCustomer: "Store credit needs a customer: pick or create one",
  splitSum: "Cash and credit of a split must add up to the offer",
  lineProduct: (index: number) => `Line ${index + 1}: the product is unknown or disabled`,
  darklisted: (index: number) => `Line ${index + 1}: the shop does not buy this product`,
  overLimit: (index: number, wanted: number) => `Line ${index + 1}: the shop wants only ${wanted} more of this product`,
  paymentsSum: "The payments must add up to the order's total",
  paymentsNeedCustomer: "A payment with store credit needs a customer",
} as const;

/** Printable text: no control characters (line breaks allowed in notes). */
const PRINTABLE = /^[^\p{Cc}]*$/u;
const NOTES = /^(?:[^\p{Cc}]|[\n\r\t])*$/u;
const text = (label: string, max: number) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`)
    .regex(PRINTABLE, `${label} must be printable text`);
const optionalText = (label: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be at most ${max} characters`)
    .regex(PRINTABLE, `${label} must be printable text`)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null));
const cents = z.number().int().min(0).max(MONEY_MAX_CENTS);
const signedCents = z.number().int().min(-MONEY_MAX_CENTS).max(MONEY_MAX_CENTS);
const id = z.number().int().positive().max(ID_MAX);
const percent = z.number().int().min(0).max(BUY_PERCENT_MAX);

// Customers ------------------------------------------------------------------------------------

export const customerSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  notes: z.string().nullable(),
  created_at: z.string(),
  /** Set once the person was erased: name, email, phone and notes are gone, the money records stay. */
  erased_at: z.string().nullable(),
  /** The store credit balance: the sum of the ledger, never below 0. */
  credit_balance: z.number().int(),
});
export type Customer = z.infer<typeof customerSchema>;

export const customerBodySchema = z.object({
  name: text("Name", CUSTOMER_NAME_MAX),
  email: z
    .string()
    .trim()
    .max(CUSTOMER_EMAIL_MAX)
    .nullable()
    .optional()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || z.email().safeParse(v).success, COUNTER_MESSAGES.email),
  phone: optionalText("Phone", CUSTOMER_PHONE_MAX),
  notes: z
    .string()
    .trim()
    .max(CUSTOMER_NOTES_MAX, `Notes must be at most ${CUSTOMER_NOTES_MAX} characters`)
    .regex(NOTES, "Notes must be printable text")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
});
export type CustomerBody = z.input<typeof customerBodySchema>;

export const customersQuerySchema = z.object({
  /** Part of a name, email or phone. */
  q: z.string().trim().max(CUSTOMER_NAME_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(CUSTOMERS_LIMIT_MAX).default(CUSTOMERS_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type CustomersQuery = z.input<typeof customersQuerySchema>;

// Store credit ---------------------------------------------------------------------------------

export const creditEntrySchema = z.object({
  id: z.number().int(),
  customer_id: z.number().int(),
  /** Cents: positive adds credit, negative spends it. */
  amount: z.number().int(),
  kind: z.enum(CREDIT_KINDS),
  reason: z.string(),
  trade_in_id: z.number().int().nullable(),
  order_id: z.number().int().nullable(),
  /** Username (or `token:<name>`) of who wrote it. */
  created_by: z.string(),
  created_at: z.string(),
  /** The balance after this entry. */
  balance_after: z.number().int(),
});
export type CreditEntry = z.infer<typeof creditEntrySchema>;

export const creditLedgerSchema = z.object({ balance: z.number().int(), entries: z.array(creditEntrySchema) });
export type CreditLedger = z.infer<typeof creditLedgerSchema>;

/** A manager's adjustment: adds (positive) or takes (negative) credit, with why. */
export const creditAdjustmentBodySchema = z.object({
  amount: signedCents.refine((v) => v !== 0, COUNTER_MESSAGES.amountNonZero),
  kind: z.enum(["adjustment", "expiry"]).default("adjustment"),
  reason: text("Reason", CREDIT_REASON_MAX),
});
export type CreditAdjustmentBody = z.input<typeof creditAdjustmentBodySchema>;
export const creditAdjustmentAnswerSchema = z.object({ entry: creditEntrySchema, balance: z.number().int() });

// Buy settings ---------------------------------------------------------------------------------

export const buyOverrideSchema = z
  .object({
    vendor: z.string().trim().max(NAME_MAX).nullable().optional(),
    set_name: z.string().trim().max(SET_NAME_MAX).nullable().optional(),
    cash_percent: percent,
    credit_percent: percent,
  })
  .refine((o) => Boolean(o.vendor) || Boolean(o.set_name), { message: "An override needs a vendor or a set to match" });
export type BuyOverride = z.infer<typeof buyOverrideSchema>;

export const buySettingsSchema = z.object({
  /** Share of the market price offered in cash, and in store credit (usually more). */
  cash_percent: percent,
  credit_percent: percent,
  /** The first override matching the product's vendor and set (each one it names) wins. */
  overrides: z.array(buyOverrideSchema).max(BUY_OVERRIDES_MAX).default([]),
  /** Products the shop wants most: their offer uses these percents. */
  hotlist: z.array(id).max(BUY_LIST_MAX).default([]),
  hotlist_cash_percent: percent.default(0),
  hotlist_credit_percent: percent.default(0),
  /** Products the shop never buys. */
  darklist: z.array(id).max(BUY_LIST_MAX).default([]),
});
export type BuySettings = z.infer<typeof buySettingsSchema>;
export type BuySettingsBody = z.input<typeof buySettingsSchema>;

export const DEFAULT_BUY_SETTINGS: BuySettings = {
  cash_percent: 50,
  credit_percent: 65,
  overrides: [],
  hotlist: [],
  hotlist_cash_percent: 0,
  hotlist_credit_percent: 0,
  darklist: [],
};

/** How many of a product the shop wants on hand; a trade-in buys at most that minus the stock. null: no limit. */
export const buyLimitSchema = z.object({ product_id: z.number().int(), buy_limit: z.number().int().nullable() });
export const buyLimitBodySchema = z.object({ buy_limit: z.number().int().min(0).lt(QUANTITY_MAX_EXCLUSIVE).nullable() });
export type BuyLimit = z.infer<typeof buyLimitSchema>;

/** GET/PUT /api/buy-settings: the settings, and every product's buy limit that is set. */
export const buySettingsAnswerSchema = z.object({ settings: buySettingsSchema, limits: z.array(buyLimitSchema) });
export type BuySettingsAnswer = z.infer<typeof buySettingsAnswerSchema>;

// Trade-ins ------------------------------------------------------------------------------------

export const tradeInLineSchema = z.object({
  id: z.number().int(),
  product_id: z.number().int(),
  product_name: z.string(),
  condition: z.enum(CONDITIONS).nullable(),
  quantity: z.number().int(),
  /** The latest market price of one unit when the offer was made; null when the feed has none. */
  market_cents: z.number().int().nullable(),
  /** Offer per unit, in cash and in credit. */
  offer_cash_cents: z.number().int(),
  offer_credit_cents: z.number().int(),
  /** A struck line stays on the trade-in but is not bought. */
  struck: z.boolean(),
  /** Why the offer is what it is (darklisted, hotlist, override, capped by the buy limit, no market price). */
  note: z.string().nullable(),
});
export type TradeInLine = z.infer<typeof tradeInLineSchema>;

export const tradeInTotalsSchema = z.object({
  /** Sums over the lines not struck: the offer all in cash, and all in credit. */
  cash_cents: z.number().int(),
  credit_cents: z.number().int(),
  units: z.number().int(),
});

export const tradeInSchema = z.object({
  id: z.number().int(),
  /** The number on the receipt and in the quantity audit (`Trade-in #N`). */
  number: z.number().int(),
  customer_id: z.number().int().nullable(),
  status: z.enum(TRADE_IN_STATUSES),
  /** `online`: a customer's buylist submission, pending until staff complete it when the cards arrive (the Counter says "Received online"). */
  source: z.enum(TRADE_IN_SOURCES),
  payout: z.enum(PAYOUTS),
  /** What the customer is paid: for cash and credit the totals' figure, for a split the two parts. */
  cash_cents: z.number().int(),
  credit_cents: z.number().int(),
  note: z.string().nullable(),
  lines: z.array(tradeInLineSchema),
  totals: tradeInTotalsSchema,
  created_by: z.string(),
  created_at: z.string(),
  accepted_by: z.string().nullable(),
  accepted_at: z.string().nullable(),
  voided_by: z.string().nullable(),
  voided_at: z.string().nullable(),
  /** A manager's reversal of an accepted trade-in: who, when and why. */
  reversed_by: z.string().nullable(),
  reversed_at: z.string().nullable(),
  reversal_reason: z.string().nullable(),
  /** An online list approved by staff (Pending until then, Approved, Complete once accepted): who and when. */
  approved_by: z.string().nullable(),
  approved_at: z.string().nullable(),
});
export type TradeIn = z.infer<typeof tradeInSchema>;
export const tradeInAnswerSchema = z.object({ trade_in: tradeInSchema });
/**
 * The status an online list shows (issue 40): Pending (a draft not approved), Approved (a draft
 * approved), Complete (accepted); null for a trade-in made at the counter, or one void or reversed.
 */
export function onlineListStatus(t: Pick<TradeIn, "source" | "status" | "approved_at">): "Pending" | "Approved" | "Complete" | null {
  if (t.source !== "online") return null;
  if (t.status === "draft") return t.approved_at === null ? "Pending" : "Approved";
  return t.status === "accepted" ? "Complete" : null;
}
export const TRADE_IN_REVERSAL_REASON_MAX = 500;
export const tradeInReverseBodySchema = z.object({
  reason: z
    .string({ error: "A reason is required" })
    .trim()
    .min(1, "A reason is required")
    .max(TRADE_IN_REVERSAL_REASON_MAX, `A reason is at most ${TRADE_IN_REVERSAL_REASON_MAX} characters`),
});
export type TradeInReverseBody = z.input<typeof tradeInReverseBodySchema>;

export const tradeInLineInputSchema = z.object({
  product_id: id,
  condition: z.enum(CONDITIONS).nullable().optional(),
  quantity: z
    .number({ error: "Quantity must be a whole number of 1 or more" })
    .int("Quantity must be a whole number of 1 or more")
    .min(1, "Quantity must be a whole number of 1 or more")
    .lt(QUANTITY_MAX_EXCLUSIVE, "Quantity is too large"),
  /** Staff may set the offer per unit by hand; left out, it is computed from the market price and the buy settings. */
  offer_cash_cents: cents.optional(),
  offer_credit_cents: cents.optional(),
  struck: z.boolean().default(false),
});
export type TradeInLineInput = z.input<typeof tradeInLineInputSchema>;

export const tradeInBodySchema = z.object({
  customer_id: id.nullable().optional(),
  lines: z.array(tradeInLineInputSchema).max(TRADE_IN_LINES_MAX, `At most ${TRADE_IN_LINES_MAX} lines`).default([]),
  payout: z.enum(PAYOUTS).default("cash"),
  /** A split's parts; for cash or credit they follow from the totals. */
  cash_cents: cents.optional(),
  credit_cents: cents.optional(),
  note: z.string().trim().max(TRADE_IN_NOTE_MAX).nullable().optional(),
});
export type TradeInBody = z.input<typeof tradeInBodySchema>;

export const tradeInsQuerySchema = z.object({
  status: z.enum(TRADE_IN_STATUSES).optional(),
  customer_id: z.coerce.number().int().positive().max(ID_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(CUSTOMERS_LIMIT_MAX).default(CUSTOMERS_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type TradeInsQuery = z.input<typeof tradeInsQuerySchema>;

// A customer's page and export -------------------------------------------------------------------

export const customerOrderSchema = z.object({
  id: z.number().int(),
  channel: z.string(),
  external_id: z.string(),
  status: z.string(),
  total: z.number().int().nullable(),
  created_at: z.string(),
});

export const customerDetailSchema = z.object({
  customer: customerSchema,
  trade_ins: z.array(tradeInSchema),
  orders: z.array(customerOrderSchema),
  credit: creditLedgerSchema,
});
export type CustomerDetail = z.infer<typeof customerDetailSchema>;

/** Everything the shop keeps about a person (GET /api/customers/{id}/export). */
export const customerExportSchema = customerDetailSchema.extend({ exported_at: z.string() });
export type CustomerExport = z.infer<typeof customerExportSchema>;

// Orders paid with credit ------------------------------------------------------------------------

export const paymentSchema = z.object({ method: z.enum(PAYMENT_METHODS), amount: cents });
export type Payment = z.infer<typeof paymentSchema>;

// The offer rule, shared: the server offers with it, a screen can explain it --------------------

export interface OfferProduct {
  id: number;
  vendor: string;
  set_name: string | null;
  quantity_on_hand: number;
  buy_limit: number | null;
}

export interface Offer {
  cash: number;
  credit: number;
  /** The most units the shop buys now (buy limit - on hand, not below 0); null: no limit. */
  wanted: number | null;
  darklisted: boolean;
  note: string | null;
}

const pct = (market: number, percent: number) => Math.floor((market * percent) / 100);

/**
 * One unit's offer: market x the cash % or credit % of the first matching override, else of the
 * hotlist (when the product is on it and its percent is higher), else the shop's; nothing for a
 * darklisted product or without a market price. Rounded down to the cent.
 */
export function offerFor(product: OfferProduct, market: number | null, settings: BuySettings): Offer {
  const wanted = product.buy_limit === null ? null : Math.max(0, product.buy_limit - product.quantity_on_hand);
  if (settings.darklist.includes(product.id))
    return { cash: 0, credit: 0, wanted, darklisted: true, note: "Darklisted: the shop does not buy it" };
  if (market === null) return { cash: 0, credit: 0, wanted, darklisted: false, note: "No market price: set the offer by hand" };
  let cashPct = settings.cash_percent;
  let creditPct = settings.credit_percent;
  let note: string | null = null;
  const override = settings.overrides.find(
    (o) => (!o.vendor || o.vendor === product.vendor) && (!o.set_name || o.set_name === product.set_name),
  );
  if (override) {
    cashPct = override.cash_percent;
    creditPct = override.credit_percent;
    note = `Override ${[override.vendor, override.set_name].filter(Boolean).join(" / ")}`;
  }
  if (settings.hotlist.includes(product.id)) {
    cashPct = Math.max(cashPct, settings.hotlist_cash_percent);
    creditPct = Math.max(creditPct, settings.hotlist_credit_percent);
    note = "Hotlist";
  }
  return { cash: pct(market, cashPct), credit: pct(market, creditPct), wanted, darklisted: false, note };
}

// Cards not yet in the catalogue, from the price feeds' printings ------------------------------

export const COUNTER_FEED_CARDS_SHOWN = 50;
export const counterFeedCardsQuerySchema = z.object({
  q: z.string().trim().min(2, "Type at least 2 letters of the card's name").max(100),
});
/**
 * A printing in a feed's latest finished run (Near Mint's or the condition-less row), with what
 * names it in that run (`run_id`, `seq`): sent back as it is to add it to the catalogue.
 */
export const counterFeedCardSchema = z.object({
  feed_id: z.number().int(),
  feed_name: z.string(),
  run_id: z.number().int(),
  seq: z.number().int(),
  name: z.string().nullable(),
  set_code: z.string().nullable(),
  set_name: z.string().nullable(),
  number: z.string().nullable(),
  finish: z.enum(FINISHES),
  tcgplayer_product_id: z.number().int().nullable(),
  scryfall_id: z.string().nullable(),
  pokemontcg_id: z.string().nullable(),
  /** The feed's market price, cents (null when it has none). */
  market: z.number().int().nullable(),
});
export type CounterFeedCard = z.infer<typeof counterFeedCardSchema>;

export const productFromFeedBodySchema = z.object({
  feed_id: z.number().int().positive().max(ID_MAX),
  run_id: z.number().int().positive().max(ID_MAX),
  seq: z.number().int().min(0).max(ID_MAX),
  /** The card's barcode; left out, a shop code (SC-000123) is made for it, to relabel later if the shop wants. */
  barcode: barcodeSchema.optional(),
  /** The product's vendor; left out: Pokémon for a pokemontcg.io card, Magic: The Gathering for a Scryfall one, else the feed's name. */
  vendor: vendorSchema.optional(),
});
export type ProductFromFeedBody = z.input<typeof productFromFeedBodySchema>;
