// The rules form: what its inputs hold (text, as typed) and the rules it makes, checked by the
// contract's own schema, so the screen says what the server would.
import { z } from "zod";
import { PRICE_KINDS, type PriceKind } from "../../../contract/market";
import { centsToAmount, parseAmount } from "../../../contract/money";
import { type PricingRules, pricingRulesSchema, ROUNDINGS, type Rounding } from "../../../contract/pricing-rules";
import { CONDITIONS, type Condition } from "../../../contract/rules";

/** Shaped as the contract's override, so its messages land on these fields. */
export interface OverrideFormValues {
  match: { vendor: string; set_name: string };
  percent: string;
}

export interface RulesFormValues {
  /** Not on the form: kept as it was loaded. */
  price_kind: PriceKind;
  condition_percent: Record<Condition, string>;
  overrides: OverrideFormValues[];
  /** An amount ("1.00"); blank: no floor. */
  floor_cents: string;
  /** Blank: no minimum margin. */
  min_margin_percent: string;
  rounding: Rounding;
  big_move_percent: string;
  /** Blank: every change waits for review. */
  auto_apply_under_percent: string;
}

export const NEW_OVERRIDE: OverrideFormValues = { match: { vendor: "", set_name: "" }, percent: "100" };

const text = (n: number | null) => (n === null ? "" : String(n));

export function rulesFormValuesOf(rules: PricingRules): RulesFormValues {
  return {
    price_kind: rules.price_kind,
    condition_percent: Object.fromEntries(CONDITIONS.map((c) => [c, text(rules.condition_percent[c] ?? null)])) as Record<
      Condition,
      string
    >,
    overrides: rules.overrides.map((o) => ({
      match: { vendor: o.match.vendor ?? "", set_name: o.match.set_name ?? "" },
      percent: String(o.percent),
    })),
    floor_cents: rules.floor_cents === null ? "" : centsToAmount(rules.floor_cents),
    min_margin_percent: text(rules.min_margin_percent),
    rounding: rules.rounding,
    big_move_percent: String(rules.big_move_percent),
    auto_apply_under_percent: text(rules.auto_apply_under_percent),
  };
}

/** Text to a number for the schema: blank -> null (the schema says when that is not allowed), not a number -> NaN (its message). */
function numberOf(value: string): number | null {
  const t = value.trim();
  return t === "" ? null : /^-?\d+(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/** Blank text is no match on that field. */
const matchOf = (value: string) => value.trim() || undefined;

const overrideFormSchema = z.object({ match: z.object({ vendor: z.string(), set_name: z.string() }), percent: z.string() });

/** Form text -> the rules, validated with pricingRulesSchema; its issues land on the fields they name. */
export const rulesFormSchema = z
  .object({
    price_kind: z.enum(PRICE_KINDS),
    condition_percent: z.record(z.enum(CONDITIONS), z.string()),
    overrides: z.array(overrideFormSchema),
    floor_cents: z.string(),
    min_margin_percent: z.string(),
    rounding: z.enum(ROUNDINGS),
    big_move_percent: z.string(),
    auto_apply_under_percent: z.string(),
  })
  .transform((v, ctx): PricingRules => {
    const floor = v.floor_cents.trim();
    const rules = pricingRulesSchema.safeParse({
      price_kind: v.price_kind,
      condition_percent: Object.fromEntries(CONDITIONS.map((c) => [c, numberOf(v.condition_percent[c] ?? "")])),
      overrides: v.overrides.map((o) => ({
        match: { vendor: matchOf(o.match.vendor), set_name: matchOf(o.match.set_name) },
        percent: numberOf(o.percent),
      })),
      floor_cents: floor === "" ? null : (parseAmount(floor) ?? -1),
      min_margin_percent: numberOf(v.min_margin_percent),
      rounding: v.rounding,
      big_move_percent: numberOf(v.big_move_percent),
      auto_apply_under_percent: numberOf(v.auto_apply_under_percent),
    });
    if (rules.success) return rules.data;
    for (const issue of rules.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    return z.NEVER;
  });
