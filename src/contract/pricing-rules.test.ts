import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareProposals,
  DEFAULT_PRICING_RULES,
  describeChange,
  OVERRIDES_MAX,
  PRICING_RULE_MESSAGES,
  type PricingInput,
  type PricingRules,
  pricingRulesSchema,
  proposePrice,
  type Rounding,
  RULE_ORDER,
  roundPrice,
} from "./pricing-rules.js";
import { CONDITIONS, MONEY_MAX_CENTS } from "./rules.js";

const card = (over: Partial<PricingInput> = {}): PricingInput => ({
  price: 500,
  cost: null,
  condition: "Near Mint",
  vendor: "Wizards",
  set_name: "Alpha",
  price_frozen: false,
  market: { nearMint: 1000 },
  ...over,
});
const rules = (over: Partial<PricingRules> = {}): PricingRules => ({ ...DEFAULT_PRICING_RULES, ...over });
const propose = (input: PricingInput, r: PricingRules = DEFAULT_PRICING_RULES) => proposePrice(input, r, "USD", "en-US");

function priced(input: PricingInput, r: PricingRules = DEFAULT_PRICING_RULES) {
  const result = propose(input, r);
  if (result.kind !== "price") throw new Error(`expected a price, got ${result.kind}`);
  return result;
}
const texts = (input: PricingInput, r?: PricingRules) => priced(input, r).steps.map((s) => s.text);
const rulesOf = (input: PricingInput, r?: PricingRules) => priced(input, r).steps.map((s) => s.rule);

describe("RULE_ORDER", () => {
  it("states the order the rules apply in, each with a label and a line for the screen", () => {
    expect(RULE_ORDER.map((r) => r.id)).toEqual(["frozen", "market", "override", "floor", "margin", "rounding", "limit"]);
    for (const rule of RULE_ORDER) {
      expect(rule.label).not.toBe("");
      expect(rule.description).not.toBe("");
    }
  });
});

describe("the order", () => {
  it("leaves a frozen price alone whatever else the rules say", () => {
    const everything = rules({
      overrides: [{ match: { vendor: "Wizards" }, percent: 200 }],
      floor_cents: 5000,
      min_margin_percent: 100,
      rounding: "49_99",
    });
    expect(propose(card({ price_frozen: true, cost: 9000 }), everything)).toEqual({ kind: "frozen" });
    expect(propose(card({ price_frozen: true, market: { nearMint: null } }))).toEqual({ kind: "frozen" });
  });

  it("takes the first matching override's percent of the condition's price", () => {
    const r = rules({
      overrides: [
        { match: { vendor: "Konami" }, percent: 50 },
        { match: { vendor: "  wizards " }, percent: 120 },
        { match: { set_name: "Alpha" }, percent: 300 },
      ],
    });
    const result = priced(card({ condition: "Lightly Played" }), r);
    expect(result.price).toBe(1080);
    expect(result.steps.map((s) => s.text)).toEqual([
      "Lightly Played: 90% of $10.00 Near Mint = $9.00 (estimated)",
      'Override 2 (vendor "wizards"): 120% of $9.00 = $10.80',
    ]);
  });

  it("matches an override on every field it names, trimmed and in any case", () => {
    const r = rules({ overrides: [{ match: { vendor: "WIZARDS", set_name: " alpha " }, percent: 150 }] });
    expect(priced(card(), r).price).toBe(1500);
    expect(priced(card({ set_name: "Beta" }), r).price).toBe(1000);
    expect(priced(card({ set_name: null }), r).price).toBe(1000);
    expect(priced(card({ vendor: "Konami" }), r).price).toBe(1000);
    // An empty field matches anything, as if it were not there.
    expect(
      priced(card({ vendor: "Konami" }), rules({ overrides: [{ match: { vendor: "", set_name: "Alpha" }, percent: 150 }] })).price,
    ).toBe(1500);
  });

  it("raises the overridden price to the floor", () => {
    const r = rules({ overrides: [{ match: { vendor: "Wizards" }, percent: 10 }], floor_cents: 250 });
    const result = priced(card(), r);
    expect(result.price).toBe(250);
    expect(rulesOf(card(), r)).toEqual(["market", "override", "floor"]);
    expect(result.steps.at(-1)?.text).toBe("Floor $2.50");
  });

  it("raises the price to the minimum margin when it is over the floor, and keeps the floor when it is under", () => {
    const higher = rules({ floor_cents: 250, min_margin_percent: 25 });
    expect(priced(card({ cost: 800, market: { nearMint: 100 } }), higher).price).toBe(1000);
    expect(texts(card({ cost: 800, market: { nearMint: 100 } }), higher)).toEqual([
      "Near Mint: market $1.00",
      "Floor $2.50",
      "Minimum margin 25% over $8.00 cost = $10.00",
    ]);
    expect(priced(card({ cost: 100, market: { nearMint: 100 } }), higher).price).toBe(250);
  });

  it("never lets rounding go under the minimum margin: it takes the next step up", () => {
    const r = rules({ min_margin_percent: 10, rounding: "49_99" });
    // 828 x 1.10 = 910.8, so at least 911; the nearest .49/.99 is 8.99, under it.
    const result = priced(card({ cost: 828, market: { nearMint: 500 } }), r);
    expect(result.price).toBe(949);
    expect(result.steps.at(-1)?.text).toBe("Rounded up to $9.49: $8.99 is under the minimum margin $9.11");
    expect(priced(card({ market: { nearMint: 910 } }), rules({ floor_cents: 910, rounding: "quarter" })).price).toBe(925);
  });

  it("keeps the cost's margin to the cent, rounding the minimum up", () => {
    // 101 x 1.10 = 111.1: 111 would be under it.
    expect(priced(card({ cost: 101, market: { nearMint: 1 } }), rules({ min_margin_percent: 10 })).price).toBe(112);
  });

  it("skips the margin without a cost", () => {
    expect(priced(card({ cost: null, market: { nearMint: 100 } }), rules({ min_margin_percent: 50 })).price).toBe(100);
  });

  it("lists only the rules that moved the price, always starting with the market", () => {
    expect(rulesOf(card(), rules({ floor_cents: 100, min_margin_percent: 10, rounding: "quarter" }))).toEqual(["market"]);
  });

  it("never goes over the largest price a product can have", () => {
    const huge = card({ market: { nearMint: MONEY_MAX_CENTS } });
    const result = priced(huge, rules({ overrides: [{ match: { vendor: "Wizards" }, percent: 1000 }], rounding: "49_99" }));
    expect(result.price).toBe(MONEY_MAX_CENTS - 1);
    expect(result.steps.at(-1)).toEqual({ rule: "limit", text: "Capped at the largest price, $9,999,999.99", cents: MONEY_MAX_CENTS - 1 });
  });
});

describe("the market price by condition", () => {
  it("estimates a condition the feed has no price for from Near Mint", () => {
    const result = priced(card({ condition: "Heavily Played" }));
    expect(result).toMatchObject({ price: 600, market: 600, estimated: true });
    expect(result.steps).toEqual([{ rule: "market", text: "Heavily Played: 60% of $10.00 Near Mint = $6.00 (estimated)", cents: 600 }]);
  });

  it("takes the feed's own price for the condition when it has one", () => {
    const result = priced(card({ condition: "Lightly Played", market: { nearMint: 1000, byCondition: { "Lightly Played": 955 } } }));
    expect(result).toMatchObject({ price: 955, market: 955, estimated: false });
    expect(result.steps[0]?.text).toBe("Lightly Played: market $9.55");
  });

  it("estimates from Near Mint when the feed only has other conditions' prices", () => {
    const input = card({ condition: "Damaged", market: { nearMint: 1001, byCondition: { "Lightly Played": 955 } } });
    // 40% of 1001 = 400.4
    expect(priced(input)).toMatchObject({ price: 400, estimated: true });
  });

  it("prices Near Mint and Sealed at their percent of their own market price, never estimated", () => {
    const r = rules({ condition_percent: { ...DEFAULT_PRICING_RULES.condition_percent, "Near Mint": 95, Sealed: 90 } });
    expect(priced(card(), r)).toMatchObject({ price: 950, market: 1000, estimated: false });
    expect(texts(card(), r)).toEqual(["Near Mint: 95% of $10.00 market = $9.50"]);
    expect(priced(card({ market: { nearMint: 1000, byCondition: { "Near Mint": 1200 } } }), r)).toMatchObject({
      price: 1140,
      market: 1200,
    });
    expect(priced(card({ condition: "Sealed", market: { nearMint: 5000 } }), r)).toMatchObject({ price: 4500, estimated: false });
  });

  it("estimates from the feed's own Near Mint price when it has one", () => {
    const input = card({ condition: "Damaged", market: { nearMint: null, byCondition: { "Near Mint": 900 } } });
    expect(texts(input)).toEqual(["Damaged: 40% of $9.00 Near Mint = $3.60 (estimated)"]);
  });

  it("prices a product without a condition as Near Mint, and says so", () => {
    expect(texts(card({ condition: null }))).toEqual(["No condition (priced as Near Mint): market $10.00"]);
  });

  it("rounds a percent of half a cent up", () => {
    // 90% of 1005 = 904.5; 75% of 1002 = 751.5
    expect(priced(card({ condition: "Lightly Played", market: { nearMint: 1005 } })).price).toBe(905);
    expect(priced(card({ condition: "Moderately Played", market: { nearMint: 1002 } })).price).toBe(752);
  });

  it("has no price without the market price it needs (0 is no price)", () => {
    expect(propose(card({ market: { nearMint: null } }))).toEqual({ kind: "no_market" });
    expect(propose(card({ market: { nearMint: 0 } }))).toEqual({ kind: "no_market" });
    expect(propose(card({ condition: "Damaged", market: { nearMint: null, byCondition: { "Lightly Played": 900 } } }))).toEqual({
      kind: "no_market",
    });
    expect(priced(card({ condition: "Damaged", market: { nearMint: null, byCondition: { Damaged: 300 } } })).price).toBe(300);
  });
});

describe("roundPrice", () => {
  it.each<[Rounding, number, number]>([
    ["49_99", 899, 899],
    ["49_99", 849, 849],
    ["49_99", 1, 49],
    ["49_99", 0, 49],
    ["49_99", 73, 49],
    ["49_99", 74, 99], // halfway between 0.49 and 0.99 goes up
    ["49_99", 900, 899],
    ["49_99", 924, 949],
    ["49_99", MONEY_MAX_CENTS, MONEY_MAX_CENTS - 1],
    ["quarter", 1, 25],
    ["quarter", 1237, 1225],
    ["quarter", 1238, 1250], // the first cent past halfway
    ["quarter", 1250, 1250],
    ["quarter", 99, 100],
    ["quarter", MONEY_MAX_CENTS - 12, MONEY_MAX_CENTS],
    ["none", 1237, 1237],
  ])("%s rounds %i to %i", (rounding, cents, expected) => {
    expect(roundPrice(cents, rounding)).toBe(expected);
  });

  it("takes the least step at or over the price it may not go under", () => {
    expect(roundPrice(900, "49_99", 900)).toBe(949);
    expect(roundPrice(899, "49_99", 899)).toBe(899);
    expect(roundPrice(1226, "quarter", 1226)).toBe(1250);
    expect(roundPrice(10, "none", 25)).toBe(25);
  });
});

describe("describeChange", () => {
  const r = rules({ big_move_percent: 30, auto_apply_under_percent: 5 });

  it("gives the change, the money at stake, and whether it is big or applies by itself", () => {
    expect(describeChange(1000, 1030, 4, r)).toEqual({ change_percent: 3, at_stake_cents: 120, big: false, auto: true });
    expect(describeChange(1000, 1300, 1, r)).toEqual({ change_percent: 30, at_stake_cents: 300, big: false, auto: false });
    expect(describeChange(1000, 1301, 1, r)).toEqual({ change_percent: 30.1, at_stake_cents: 301, big: true, auto: false });
    expect(describeChange(300, 200, 2, r)).toEqual({ change_percent: -33.3, at_stake_cents: 200, big: true, auto: false });
    expect(describeChange(1000, 1050, 1, r).auto).toBe(false);
    expect(describeChange(1000, 1049, 1, r).auto).toBe(true);
  });

  it("counts a product out of stock as one, so it still sorts by its move", () => {
    expect(describeChange(1000, 900, 0, r).at_stake_cents).toBe(100);
  });

  it("treats a product with no price yet as neither big nor automatic, with its whole new price at stake", () => {
    expect(describeChange(null, 500, 3, r)).toEqual({ change_percent: null, at_stake_cents: 1500, big: false, auto: false });
  });

  it("flags any price for a product that was free", () => {
    expect(describeChange(0, 10, 1, r)).toEqual({ change_percent: null, at_stake_cents: 10, big: true, auto: false });
  });

  it("never applies anything by itself unless the shop turned auto-apply on", () => {
    expect(describeChange(1000, 1001, 1, DEFAULT_PRICING_RULES).auto).toBe(false);
  });

  it("sorts by money at stake, the most first", () => {
    const proposals = [
      { id: 1, ...describeChange(1000, 1100, 1, r) },
      { id: 2, ...describeChange(1000, 900, 10, r) },
      { id: 3, ...describeChange(null, 150, 0, r) },
    ];
    expect(proposals.sort(compareProposals).map((p) => p.id)).toEqual([2, 3, 1]);
  });
});

describe("pricingRulesSchema", () => {
  const messages = (value: unknown) => {
    const result = pricingRulesSchema.safeParse(value);
    return result.success ? [] : result.error.issues.map((issue) => issue.message);
  };

  it("accepts the defaults, which never apply anything by themselves", () => {
    expect(pricingRulesSchema.parse(DEFAULT_PRICING_RULES)).toEqual(DEFAULT_PRICING_RULES);
    expect(DEFAULT_PRICING_RULES.auto_apply_under_percent).toBeNull();
    expect(Object.keys(DEFAULT_PRICING_RULES.condition_percent).sort()).toEqual([...CONDITIONS].sort());
  });

  it("says in plain words what is wrong", () => {
    const d = DEFAULT_PRICING_RULES;
    expect(messages({ ...d, price_kind: "average" })).toEqual([PRICING_RULE_MESSAGES.priceKind]);
    expect(messages({ ...d, condition_percent: { ...d.condition_percent, Damaged: 0 } })).toEqual([PRICING_RULE_MESSAGES.conditionPercent]);
    expect(messages({ ...d, condition_percent: { ...d.condition_percent, Damaged: 40.5 } })).toEqual([
      PRICING_RULE_MESSAGES.conditionPercent,
    ]);
    const { Sealed: _sealed, ...withoutSealed } = d.condition_percent;
    expect(messages({ ...d, condition_percent: withoutSealed })).toEqual([PRICING_RULE_MESSAGES.conditionPercent]);
    expect(messages({ ...d, overrides: [{ match: {}, percent: 110 }] })).toEqual([PRICING_RULE_MESSAGES.overrideMatch]);
    expect(messages({ ...d, overrides: [{ match: { vendor: "  " }, percent: 110 }] })).toEqual([PRICING_RULE_MESSAGES.overrideMatch]);
    expect(messages({ ...d, overrides: [{ match: { set_name: "Alpha" }, percent: 1001 }] })).toEqual([
      PRICING_RULE_MESSAGES.overridePercent,
    ]);
    const many = Array.from({ length: OVERRIDES_MAX + 1 }, () => ({ match: { vendor: "Wizards" }, percent: 100 }));
    expect(messages({ ...d, overrides: many })).toEqual([PRICING_RULE_MESSAGES.overridesMax]);
    expect(messages({ ...d, floor_cents: -1 })).toEqual([PRICING_RULE_MESSAGES.floor]);
    expect(messages({ ...d, min_margin_percent: -5 })).toEqual([PRICING_RULE_MESSAGES.minMargin]);
    expect(messages({ ...d, rounding: "dimes" })).toEqual([PRICING_RULE_MESSAGES.rounding]);
    expect(messages({ ...d, big_move_percent: 0 })).toEqual([PRICING_RULE_MESSAGES.bigMove]);
    expect(messages({ ...d, auto_apply_under_percent: "5" })).toEqual([PRICING_RULE_MESSAGES.autoApply]);
    expect(messages({ ...d, auto_apply_under_percent: 31 })).toEqual([PRICING_RULE_MESSAGES.autoOverBig]);
  });

  it("trims what an override matches", () => {
    const parsed = pricingRulesSchema.parse({ ...DEFAULT_PRICING_RULES, overrides: [{ match: { vendor: " Wizards " }, percent: 110 }] });
    expect(parsed.overrides[0]?.match).toEqual({ vendor: "Wizards" });
  });
});

describe("properties", () => {
  const cents = fc.integer({ min: 0, max: 10_000_000 });
  const percent = fc.integer({ min: 1, max: 1000 });
  const anyRules = fc.record({
    price_kind: fc.constant("market" as const),
    condition_percent: fc.record({
      "Near Mint": percent,
      "Lightly Played": percent,
      "Moderately Played": percent,
      "Heavily Played": percent,
      Damaged: percent,
      Sealed: percent,
    }),
    overrides: fc.array(
      fc.record({ match: fc.record({ vendor: fc.constantFrom("Wizards", "Konami") }), percent: fc.integer({ min: 1, max: 300 }) }),
      { maxLength: 3 },
    ),
    floor_cents: fc.option(cents),
    min_margin_percent: fc.option(fc.integer({ min: 0, max: 200 })),
    rounding: fc.constantFrom<Rounding>("none", "49_99", "quarter"),
    big_move_percent: fc.constant(30),
    auto_apply_under_percent: fc.constant(null),
  });
  const anyInput = fc.record({
    price: fc.option(cents),
    cost: fc.option(cents),
    condition: fc.option(fc.constantFrom(...CONDITIONS)),
    vendor: fc.constantFrom("Wizards", "Konami", "Topps"),
    set_name: fc.option(fc.constantFrom("Alpha", "Beta")),
    price_frozen: fc.boolean(),
    market: fc.record({
      nearMint: fc.option(cents),
      byCondition: fc.dictionary(fc.constantFrom(...CONDITIONS), cents, { maxKeys: 3 }),
    }),
  });

  it("never proposes a price under the floor or the cost plus the minimum margin", () => {
    fc.assert(
      fc.property(anyInput, anyRules, (input, r) => {
        const result = propose(input, r);
        if (result.kind !== "price") return;
        expect(result.price).toBeGreaterThanOrEqual(r.floor_cents ?? 0);
        if (input.cost !== null && r.min_margin_percent !== null) {
          expect(result.price * 100).toBeGreaterThanOrEqual(input.cost * (100 + r.min_margin_percent));
        }
        expect(result.steps.at(-1)?.cents).toBe(result.price);
      }),
    );
  });

  it("always ends a price rounded to .49/.99 in 49 or 99 cents", () => {
    fc.assert(
      fc.property(anyInput, anyRules, (input, r) => {
        const result = propose(input, { ...r, rounding: "49_99" });
        if (result.kind === "price") expect([49, 99]).toContain(result.price % 100);
      }),
    );
  });

  it("always leaves a frozen price frozen", () => {
    fc.assert(fc.property(anyInput, anyRules, (input, r) => propose({ ...input, price_frozen: true }, r).kind === "frozen"));
  });
});
