import { describe, expect, it } from "vitest";
import { DEFAULT_PRICING_RULES, PRICING_RULE_MESSAGES, type PricingRules } from "../../../contract/pricing-rules";
import { NEW_OVERRIDE, type RulesFormValues, rulesFormSchema, rulesFormValuesOf } from "./rules-form";

const messages = (values: RulesFormValues) => {
  const parsed = rulesFormSchema.safeParse(values);
  return parsed.success ? [] : parsed.error.issues.map((i) => [i.path.join("."), i.message]);
};

describe("the rules form", () => {
  it("gives back the rules it was filled with", () => {
    const rules: PricingRules = {
      ...DEFAULT_PRICING_RULES,
      price_kind: "mid",
      overrides: [
        { match: { vendor: "Wizards" }, percent: 110 },
        { match: { vendor: "Pokemon", set_name: "Base Set" }, percent: 95 },
      ],
      floor_cents: 25,
      min_margin_percent: 20,
      rounding: "49_99",
      auto_apply_under_percent: 5,
    };
    const values = rulesFormValuesOf(rules);
    expect(values.floor_cents).toBe("0.25");
    expect(values.overrides[0]).toEqual({ match: { vendor: "Wizards", set_name: "" }, percent: "110" });
    expect(rulesFormSchema.parse(values)).toEqual(rules);
  });

  it("blank floor, margin and auto-apply are none; an amount may carry its currency sign", () => {
    const values = { ...rulesFormValuesOf(DEFAULT_PRICING_RULES), floor_cents: " ", min_margin_percent: "", auto_apply_under_percent: "" };
    expect(rulesFormSchema.parse(values)).toMatchObject({ floor_cents: null, min_margin_percent: null, auto_apply_under_percent: null });
    expect(rulesFormSchema.parse({ ...values, floor_cents: "$1.50" }).floor_cents).toBe(150);
  });

  it("says what the server would, on the field it is about", () => {
    const values = rulesFormValuesOf(DEFAULT_PRICING_RULES);
    expect(messages({ ...values, floor_cents: "one dollar" })).toEqual([["floor_cents", PRICING_RULE_MESSAGES.floor]]);
    expect(messages({ ...values, condition_percent: { ...values.condition_percent, Damaged: "" } })).toEqual([
      ["condition_percent.Damaged", PRICING_RULE_MESSAGES.conditionPercent],
    ]);
    expect(messages({ ...values, min_margin_percent: "12.5" })).toEqual([["min_margin_percent", PRICING_RULE_MESSAGES.minMargin]]);
    expect(messages({ ...values, big_move_percent: "20", auto_apply_under_percent: "25" })).toEqual([
      ["auto_apply_under_percent", PRICING_RULE_MESSAGES.autoOverBig],
    ]);
  });

  it("an override needs a vendor or a set, and a percent", () => {
    const values = {
      ...rulesFormValuesOf(DEFAULT_PRICING_RULES),
      overrides: [NEW_OVERRIDE, { ...NEW_OVERRIDE, match: { vendor: "Topps", set_name: "" }, percent: "0" }],
    };
    expect(messages(values)).toEqual([
      ["overrides.0.match", PRICING_RULE_MESSAGES.overrideMatch],
      ["overrides.1.percent", PRICING_RULE_MESSAGES.overridePercent],
    ]);
  });
});
