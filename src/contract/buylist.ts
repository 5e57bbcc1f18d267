// The online buylist (issue 40): a public page of what the shop is buying at what price, and a
// customer's submission of cards, which staff receive as a pending trade-in. No sign-in, so the
// answers never carry stock counts or costs: an offer and the most the shop takes per submission.
import { z } from "zod";
import { ID_MAX } from "./common.js";
import { CUSTOMER_EMAIL_MAX, CUSTOMER_NAME_MAX, CUSTOMER_PHONE_MAX, TRADE_IN_NOTE_MAX } from "./counter.js";
import { CONDITIONS } from "./rules.js";

export const BUYLIST_LIMIT_DEFAULT = 50;
export const BUYLIST_LIMIT_MAX = 100;
export const BUYLIST_QUERY_MAX = 200;
/** Lines of one submission. */
export const BUYLIST_LINES_MAX = 50;
/** Units of one product in one submission, whatever the shop still wants. */
export const BUYLIST_PER_SUBMISSION_MAX = 20;
/** Submissions per address and window (per server process). */
export const BUYLIST_SUBMISSIONS_PER_WINDOW = 5;
export const BUYLIST_WINDOW_MS = 60 * 60_000;
/** A submission's body: 50 lines and the contact fields fit well within it. */
export const BUYLIST_BODY_LIMIT_BYTES = 16 * 1024;
/** The form's hidden field: people leave it empty, form-filling robots do not. */
export const BUYLIST_HONEYPOT = "website";

export const BUYLIST_MESSAGES = {
  refused: "This form could not be sent. Please try again.",
  notBuying: (index: number) => `Line ${index + 1}: the shop is not buying this card now`,
  tooMany: (index: number, most: number) => `Line ${index + 1}: the shop takes at most ${most} of this card`,
  duplicate: (index: number) => `Line ${index + 1}: this card and condition are already on the list`,
  rateLimited: "Too many submissions from this address. Please try again later.",
  emailRequired: "Email is required",
  email: "Email must be an email address",
  linesRequired: "Add at least one card",
} as const;

export const buylistQuerySchema = z.object({
  /** Part of the card's name or set. */
  q: z.string().trim().max(BUYLIST_QUERY_MAX).optional(),
  limit: z.coerce.number().int().min(1).max(BUYLIST_LIMIT_MAX).default(BUYLIST_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
});
export type BuylistQuery = z.input<typeof buylistQuerySchema>;

export const buylistOfferSchema = z.object({
  condition: z.enum(CONDITIONS),
  /** The offer for one unit in this condition, in cents: in cash, and in store credit. */
  cash_cents: z.number().int(),
  credit_cents: z.number().int(),
});
export type BuylistOffer = z.infer<typeof buylistOfferSchema>;

export const buylistItemSchema = z.object({
  product_id: z.number().int(),
  product_name: z.string(),
  vendor: z.string(),
  set_name: z.string().nullable(),
  card_number: z.string().nullable(),
  /** Near Mint first; other conditions when the price feed prices them. */
  offers: z.array(buylistOfferSchema),
  /** The most units of it the shop takes in one submission. */
  max_quantity: z.number().int(),
});
export type BuylistItem = z.infer<typeof buylistItemSchema>;

export const buylistAnswerSchema = z.object({
  items: z.array(buylistItemSchema),
  has_more: z.boolean(),
  /** The shop's currency (ISO 4217) the cents are in. */
  currency: z.string(),
});
export type BuylistAnswer = z.infer<typeof buylistAnswerSchema>;

const PRINTABLE = /^[^\p{Cc}]*$/u;
const NOTES = /^(?:[^\p{Cc}]|[\n\r\t])*$/u;

export const buylistLineSchema = z.object({
  product_id: z.number().int().positive().max(ID_MAX),
  condition: z.enum(CONDITIONS).default("Near Mint"),
  quantity: z
    .number({ error: "Quantity must be a whole number of 1 or more" })
    .int("Quantity must be a whole number of 1 or more")
    .min(1, "Quantity must be a whole number of 1 or more")
    .max(BUYLIST_PER_SUBMISSION_MAX, `Quantity must be at most ${BUYLIST_PER_SUBMISSION_MAX}`),
});
export type BuylistLine = z.input<typeof buylistLineSchema>;

export const buylistSubmissionSchema = z.object({
  name: z
    .string({ error: "Name is required" })
    .trim()
    .min(1, "Name is required")
    .max(CUSTOMER_NAME_MAX, `Name must be at most ${CUSTOMER_NAME_MAX} characters`)
    .regex(PRINTABLE, "Name must be printable text"),
  email: z
    .string({ error: BUYLIST_MESSAGES.emailRequired })
    .trim()
    .min(1, BUYLIST_MESSAGES.emailRequired)
    .max(CUSTOMER_EMAIL_MAX, BUYLIST_MESSAGES.email)
    .pipe(z.email(BUYLIST_MESSAGES.email)),
  phone: z
    .string()
    .trim()
    .max(CUSTOMER_PHONE_MAX, `Phone must be at most ${CUSTOMER_PHONE_MAX} characters`)
    .regex(PRINTABLE, "Phone must be printable text")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  /** How the customer would like to be paid; staff settle it when the cards arrive. */
  payout: z.enum(["cash", "credit"]).default("credit"),
  lines: z
    .array(buylistLineSchema, { error: BUYLIST_MESSAGES.linesRequired })
    .min(1, BUYLIST_MESSAGES.linesRequired)
    .max(BUYLIST_LINES_MAX, `At most ${BUYLIST_LINES_MAX} lines`),
  note: z
    .string()
    .trim()
    .max(TRADE_IN_NOTE_MAX - 100, `Note must be at most ${TRADE_IN_NOTE_MAX - 100} characters`)
    .regex(NOTES, "Note must be printable text")
    .nullable()
    .optional()
    .transform((v) => (v ? v : null)),
  /** The honeypot: hidden from people, left empty by them. */
  [BUYLIST_HONEYPOT]: z.string().max(500).optional(),
});
export type BuylistSubmission = z.input<typeof buylistSubmissionSchema>;

export const buylistReceiptSchema = z.object({
  /** The trade-in's number: what the customer quotes when the cards arrive. */
  reference: z.number().int(),
  /** Pending until the shop has the cards; then complete. */
  status: z.literal("pending"),
  units: z.number().int(),
  /** The offer for the whole list at today's prices, in cash and in credit (the shop confirms it when the cards arrive). */
  cash_cents: z.number().int(),
  credit_cents: z.number().int(),
});
export type BuylistReceipt = z.infer<typeof buylistReceiptSchema>;
