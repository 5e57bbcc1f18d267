// Repricing rules: what a manager sets, the order they apply in, and the proposal they make for one
// product. Shared: the server proposes with these, the screen shows the order and explains each step.
import { z } from "zod";
import { PRICE_KINDS } from "./market.js";
import { formatMoney } from "./money.js";
import { CONDITIONS, type Condition, CURRENCY_DEFAULT, MONEY_MAX_CENTS, NAME_MAX, SET_NAME_MAX } from "./rules.js";

/**
 * The rules in the order they apply; the screen lists them as they are here. A step only ever
 * works on the price the step before it left, so the later rule wins where two disagree.
 */
export const RULE_ORDER = [
  {
    id: "frozen",
    label: "Frozen price",
    description: "A price a person froze by hand stays as it is: no rule below moves it until it is unfrozen.",
  },
  {
    id: "market",
    label: "Market price by condition",
    description:
      "Near Mint and Sealed sell at their percent of the market price. Other conditions take the feed's own price for the condition; when the feed has none, their percent of the Near Mint price, marked estimated. No condition counts as Near Mint.",
  },
  {
    id: "override",
    label: "Vendor or set override",
    description: "The first override in the list that matches the product's vendor and set takes its percent of that price.",
  },
  { id: "floor", label: "Floor", description: "No price goes below the floor." },
  {
    id: "margin",
    label: "Minimum margin",
    description: "No price goes below the cost plus the minimum margin (products without a cost skip this).",
  },
  {
    id: "rounding",
    label: "Rounding",
    description: "To the nearest .49 or .99, or the nearest 0.25; when that would go below the floor or the margin, the next step up.",
  },
  {
    id: "limit",
    label: "Largest price",
    description: "No price goes above the largest price a product can have, not even for the floor or the margin.",
  },
] as const;
export type RuleId = (typeof RULE_ORDER)[number]["id"];

export const ROUNDINGS = ["none", "49_99", "quarter"] as const;
export type Rounding = (typeof ROUNDINGS)[number];
export const ROUNDING_LABELS: Record<Rounding, string> = {
  none: "No rounding",
  "49_99": "To .49 or .99",
  quarter: "To the nearest 0.25",
};

/** What an override may match on; each one it names must match (a tag could join these later). */
export const OVERRIDE_MATCH_FIELDS = ["vendor", "set_name"] as const;
export type OverrideMatchField = (typeof OVERRIDE_MATCH_FIELDS)[number];
export const OVERRIDE_MATCH_LABELS: Record<OverrideMatchField, string> = { vendor: "vendor", set_name: "set" };

export const OVERRIDES_MAX = 50;
export const PERCENT_MIN = 1;
export const PERCENT_MAX = 1000;

export const PRICING_RULE_MESSAGES = {
  priceKind: `Price from must be one of: ${PRICE_KINDS.join(", ")}`,
  conditionPercent: `Each condition's percent must be a whole number from ${PERCENT_MIN} to ${PERCENT_MAX}`,
  overridePercent: `An override's percent must be a whole number from ${PERCENT_MIN} to ${PERCENT_MAX}`,
  overrideMatch: "An override needs a vendor or a set to match",
  overrideVendor: `An override's vendor must be at most ${NAME_MAX} characters`,
  overrideSet: `An override's set must be at most ${SET_NAME_MAX} characters`,
  overridesMax: `At most ${OVERRIDES_MAX} overrides`,
  floor: "The floor must be 0 or a positive amount",
  minMargin: `The minimum margin must be a whole number of percent from 0 to ${PERCENT_MAX}`,
  rounding: `Rounding must be one of: ${ROUNDINGS.join(", ")}`,
  bigMove: `A big move must be a whole number of percent from ${PERCENT_MIN} to ${PERCENT_MAX}`,
  autoApply: `Auto-apply must be a whole number of percent from ${PERCENT_MIN} to ${PERCENT_MAX}`,
  autoOverBig: "Auto-apply must stop at or under the big move: big moves are always reviewed",
} as const;

const wholeNumber = (min: number, max: number, message: string) =>
  z.number({ error: message }).int(message).min(min, message).max(max, message);

const matchText = (max: number, message: string) => z.string({ error: message }).trim().max(max, message).optional();

const overrideSchema = z.object({
  match: z
    .object({
      vendor: matchText(NAME_MAX, PRICING_RULE_MESSAGES.overrideVendor),
      set_name: matchText(SET_NAME_MAX, PRICING_RULE_MESSAGES.overrideSet),
    })
    .refine((match) => OVERRIDE_MATCH_FIELDS.some((field) => match[field]), PRICING_RULE_MESSAGES.overrideMatch),
  percent: wholeNumber(PERCENT_MIN, PERCENT_MAX, PRICING_RULE_MESSAGES.overridePercent),
});
export type PriceOverride = z.infer<typeof overrideSchema>;

export const pricingRulesSchema = z
  .object({
    /** Which of the feed's kinds of price is the market; the caller of proposePrice reads it and passes that price. */
    price_kind: z.enum(PRICE_KINDS, { error: PRICING_RULE_MESSAGES.priceKind }),
    // An object with each condition named (not a record keyed by an enum): the API document then
    // lists the properties it requires.
    condition_percent: z.object(
      Object.fromEntries(
        CONDITIONS.map((c) => [c, wholeNumber(PERCENT_MIN, PERCENT_MAX, PRICING_RULE_MESSAGES.conditionPercent)]),
      ) as Record<Condition, ReturnType<typeof wholeNumber>>,
      { error: PRICING_RULE_MESSAGES.conditionPercent },
    ),
    /** In order: the first that matches applies. */
    overrides: z.array(overrideSchema).max(OVERRIDES_MAX, PRICING_RULE_MESSAGES.overridesMax),
    floor_cents: wholeNumber(0, MONEY_MAX_CENTS, PRICING_RULE_MESSAGES.floor).nullable(),
    min_margin_percent: wholeNumber(0, PERCENT_MAX, PRICING_RULE_MESSAGES.minMargin).nullable(),
    rounding: z.enum(ROUNDINGS, { error: PRICING_RULE_MESSAGES.rounding }),
    /** A move of more than this percent is flagged for a closer look. */
    big_move_percent: wholeNumber(PERCENT_MIN, PERCENT_MAX, PRICING_RULE_MESSAGES.bigMove),
    /**
     * Moves under this percent apply without review, after each feed's run, as an undoable import
     * (prices.service.ts autoApplyAfterRun); null: every change waits for review.
     */
    auto_apply_under_percent: wholeNumber(PERCENT_MIN, PERCENT_MAX, PRICING_RULE_MESSAGES.autoApply).nullable(),
  })
  .refine((rules) => rules.auto_apply_under_percent === null || rules.auto_apply_under_percent <= rules.big_move_percent, {
    message: PRICING_RULE_MESSAGES.autoOverBig,
    path: ["auto_apply_under_percent"],
  });
export type PricingRules = z.infer<typeof pricingRulesSchema>;

export const DEFAULT_PRICING_RULES: PricingRules = {
  price_kind: "market",
  condition_percent: {
    "Near Mint": 100,
    "Lightly Played": 90,
    "Moderately Played": 75,
    "Heavily Played": 60,
    Damaged: 40,
    Sealed: 100,
  },
  overrides: [],
  floor_cents: null,
  min_margin_percent: null,
  rounding: "none",
  big_move_percent: 30,
  auto_apply_under_percent: null,
};

/** One product as the rules read it; money in whole cents. The caller picks the printing and the kind of price. */
export interface PricingInput {
  /** The current price: the rules do not read it (describeChange compares it with the proposal). */
  price: number | null;
  cost: number | null;
  condition: Condition | null;
  vendor: string;
  set_name: string | null;
  price_frozen: boolean;
  /** The feed's prices of the product's printing: its own per condition where it has them, and the Near Mint (main) price. */
  market: { byCondition?: Partial<Record<Condition, number>>; nearMint: number | null };
}

export interface PriceStep {
  rule: RuleId;
  text: string;
  /** The price after this step. */
  cents: number;
}

export type PriceProposal =
  | { kind: "frozen" }
  | { kind: "no_market" }
  /** `market`: the market price of the product in its condition (estimated from Near Mint when `estimated`). */
  | { kind: "price"; price: number; market: number; estimated: boolean; steps: PriceStep[] };

/** A percent of an amount in whole cents, half a cent rounded up. */
export function percentOf(cents: number, percent: number): number {
  return Math.floor((cents * percent + 50) / 100);
}

/** The prices a rounding lands on: offset + size x k for k = 0, 1, 2... (never 0: $0.49 and $0.25 are the least). */
const ROUNDING_STEPS: Record<Exclude<Rounding, "none">, { offset: number; size: number }> = {
  "49_99": { offset: 49, size: 50 },
  quarter: { offset: 25, size: 25 },
};

/**
 * The nearest price the rounding lands on (halfway goes up), or when that is under `atLeast`, the
 * least one at or over it.
 */
export function roundPrice(cents: number, rounding: Rounding, atLeast = 0): number {
  if (rounding === "none") return Math.max(cents, atLeast);
  const { offset, size } = ROUNDING_STEPS[rounding];
  const nearest = offset + size * Math.max(0, Math.floor((cents - offset + size / 2) / size));
  return nearest >= atLeast ? nearest : offset + size * Math.max(0, Math.ceil((atLeast - offset) / size));
}

/** The largest price the rounding allows: the product's price limit, or the last step under it. */
function largestPrice(rounding: Rounding): number {
  if (rounding === "none") return MONEY_MAX_CENTS;
  const { offset, size } = ROUNDING_STEPS[rounding];
  return offset + size * Math.floor((MONEY_MAX_CENTS - offset) / size);
}

/** A feed price the rules can use: 0 or less is no price (feeds write 0 for "none"). */
const usable = (cents: number | null | undefined): cents is number => typeof cents === "number" && Number.isSafeInteger(cents) && cents > 0;

const normalised = (text: string) => text.trim().toLowerCase();

function matches(override: PriceOverride, product: Pick<PricingInput, OverrideMatchField>): boolean {
  return OVERRIDE_MATCH_FIELDS.every((field) => {
    const wanted = override.match[field]?.trim();
    if (!wanted) return true;
    const value = product[field];
    return value !== null && normalised(value) === normalised(wanted);
  });
}

/**
 * The price the rules give one product, with each step that set it in words, in RULE_ORDER.
 * A step is listed when its rule changed the price (the market step always is).
 */
export function proposePrice(input: PricingInput, rules: PricingRules, currency = CURRENCY_DEFAULT, locale?: string): PriceProposal {
  if (input.price_frozen) return { kind: "frozen" };
  const money = (cents: number) => formatMoney(cents, currency, locale);

  // 2. Market by condition.
  const condition = input.condition ?? "Near Mint";
  const percent = rules.condition_percent[condition];
  const own = input.market.byCondition?.[condition];
  const main = input.market.nearMint;
  const nearMintOwn = input.market.byCondition?.["Near Mint"];
  const nearMint = usable(nearMintOwn) ? nearMintOwn : main;
  let market: number;
  let price: number;
  let estimated = false;
  let text: string;
  const name = input.condition === null ? "No condition (priced as Near Mint)" : condition;
  if (condition === "Near Mint" || condition === "Sealed") {
    const base = usable(own) ? own : main;
    if (!usable(base)) return { kind: "no_market" };
    market = base;
    price = percentOf(base, percent);
    text = percent === 100 ? `${name}: market ${money(base)}` : `${name}: ${percent}% of ${money(base)} market = ${money(price)}`;
  } else if (usable(own)) {
    market = price = own;
    text = `${name}: market ${money(own)}`;
  } else {
    if (!usable(nearMint)) return { kind: "no_market" };
    market = price = percentOf(nearMint, percent);
    estimated = true;
    text = `${name}: ${percent}% of ${money(nearMint)} Near Mint = ${money(price)} (estimated)`;
  }
  const steps: PriceStep[] = [{ rule: "market", text, cents: price }];
  const step = (rule: RuleId, cents: number, words: string) => {
    price = cents;
    steps.push({ rule, text: words, cents });
  };

  // 3. The first override that matches.
  const index = rules.overrides.findIndex((override) => matches(override, input));
  const override = rules.overrides[index];
  if (override) {
    const what = OVERRIDE_MATCH_FIELDS.filter((field) => override.match[field]?.trim())
      .map((field) => `${OVERRIDE_MATCH_LABELS[field]} "${override.match[field]?.trim()}"`)
      .join(", ");
    const next = percentOf(price, override.percent);
    step("override", next, `Override ${index + 1} (${what}): ${override.percent}% of ${money(price)} = ${money(next)}`);
  }

  // 4. Floor, 5. minimum margin: each only raises the price; together they are the least price.
  let least = { cents: rules.floor_cents ?? 0, name: "floor" };
  if (price < least.cents) step("floor", least.cents, `Floor ${money(least.cents)}`);
  const margin = rules.min_margin_percent;
  if (margin !== null && input.cost !== null) {
    // Rounded up, not half up: a bound that is never under cost x (1 + margin), not even by part of a cent.
    const minimum = Math.ceil((input.cost * (100 + margin)) / 100);
    if (price < minimum) step("margin", minimum, `Minimum margin ${margin}% over ${money(input.cost)} cost = ${money(minimum)}`);
    if (minimum >= least.cents) least = { cents: minimum, name: "minimum margin" };
  }

  // 6. Rounding to the nearest step, or the next step up when the nearest is under the least price.
  const nearest = roundPrice(price, rules.rounding);
  const rounded = roundPrice(price, rules.rounding, least.cents);
  if (rounded !== price) {
    step(
      "rounding",
      rounded,
      rounded === nearest
        ? `Rounded to ${money(rounded)}`
        : `Rounded up to ${money(rounded)}: ${money(nearest)} is under the ${least.name} ${money(least.cents)}`,
    );
  }

  // 7. The largest price a product can have.
  const largest = largestPrice(rules.rounding);
  if (price > largest) step("limit", largest, `Capped at the largest price, ${money(largest)}`);

  return { kind: "price", price, market, estimated, steps };
}

export interface ChangeSummary {
  /** (new - old) / old in percent, to a tenth; null when there was no price (or a price of 0) to move from. */
  change_percent: number | null;
  /** The move times the stock (at least one), what the review sorts by. */
  at_stake_cents: number;
  /** A move over the big-move percent, or any price for a product that was free. */
  big: boolean;
  /** Applies without review: auto-apply is on, the move is under its percent, and the product had a price. */
  auto: boolean;
}

/**
 * What a proposed change means for the review. A product without a price yet moves from nothing:
 * the whole new price is at stake, and it is neither big nor applied without review. Big and auto
 * are decided on exact cents, not on the rounded percent.
 */
export function describeChange(old: number | null, next: number, quantity: number, rules: PricingRules): ChangeSummary {
  const move = Math.abs(next - (old ?? 0));
  const at_stake_cents = move * Math.max(quantity, 1);
  if (old === null) return { change_percent: null, at_stake_cents, big: false, auto: false };
  if (old === 0) return { change_percent: next === 0 ? 0 : null, at_stake_cents, big: next !== 0, auto: false };
  const big = move * 100 > rules.big_move_percent * old;
  const under = rules.auto_apply_under_percent;
  const auto = under !== null && !big && move * 100 < under * old;
  const tenths = Math.round((Math.abs(next - old) * 1000) / old) / 10;
  return { change_percent: next < old ? -tenths : tenths, at_stake_cents, big, auto };
}

/** Sorts proposals by money at stake, the most first (ties keep their order). */
export function compareProposals(a: { at_stake_cents: number }, b: { at_stake_cents: number }): number {
  return b.at_stake_cents - a.at_stake_cents;
}
