import {
  DEFAULT_PRICING_RULES,
  describeChange,
  type PricingRules,
  pricingRulesSchema,
  proposePrice,
} from "../../../contract/pricing-rules.js";
import type { Database, Db } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { storedRules } from "./price-admin.repo.js";
import { type PricedProduct, type ProposalRow, pricedProducts, saveProposals } from "./prices.repo.js";
import { productRanges } from "./product-ranges.js";

/** Products the rules price per statement (short ones on the embedded database: a tap waits for the one running). */
const PROPOSE_PAGE = { pglite: 500, postgres: 2_000 } as const;

/** Whether a stored pending proposal is the one the rules make now (same price from the same product, same figures and steps). */
function sameProposal(pending: NonNullable<PricedProduct["pending"]>, made: ProposalRow): boolean {
  return (
    pending.old_price === made.old_price &&
    pending.new_price === made.new_price &&
    pending.market === made.market &&
    pending.estimated === made.estimated &&
    pending.change_percent === made.change_percent &&
    pending.at_stake === made.at_stake &&
    pending.big === made.big &&
    pending.based_on === made.based_on &&
    pending.steps.length === made.steps.length &&
    pending.steps.every((s, i) => {
      const m = made.steps[i];
      return m !== undefined && s.rule === m.rule && s.text === m.text && s.cents === m.cents;
    })
  );
}

/** The shop's repricing rules: the stored ones, or the defaults until a manager saves some. */
export async function loadRules(db: Db): Promise<PricingRules> {
  const parsed = pricingRulesSchema.safeParse(await storedRules(db));
  return parsed.success ? parsed.data : DEFAULT_PRICING_RULES;
}

/**
 * Runs the rules over every active, ungraded product with a market price in the shop's currency
 * (its latest, from whichever feed saw it last) and keeps one pending proposal per product whose
 * price would change: a proposal the new run makes again (same product, new price and basis) keeps
 * its id, a changed one is rewritten, and a product now priced right has none. Graded slabs are left out: a raw card's market price is not theirs.
 * Returns the proposals made.
 */
export async function makeProposals(database: Database, run: { runId: number | null; currency: string }): Promise<number> {
  const db = database.bulk.db;
  const rules = await loadRules(db);
  let made = 0;
  for await (const { after, last } of productRanges(database, PROPOSE_PAGE[database.kind])) {
    await yieldToPeople(database);
    const page = await pricedProducts(db, { after, last, kind: rules.price_kind, currency: run.currency });
    if (page.length === 0) continue;
    const proposals: ProposalRow[] = [];
    /** Products priced right now whose pending proposal goes. */
    const superseded: number[] = [];
    for (const p of page) {
      const proposal = proposePrice(
        {
          price: p.price,
          cost: p.cost,
          condition: p.condition,
          vendor: p.vendor,
          set_name: p.set_name,
          price_frozen: p.price_frozen,
          market: { nearMint: p.market, byCondition: p.by_condition ?? undefined },
        },
        rules,
        run.currency,
      );
      if (proposal.kind !== "price" || proposal.price === p.price) {
        if (p.pending) superseded.push(p.id);
        continue;
      }
      const change = describeChange(p.price, proposal.price, p.quantity_on_hand, rules);
      const row: ProposalRow = {
        product_id: p.id,
        old_price: p.price,
        new_price: proposal.price,
        market: proposal.market,
        estimated: proposal.estimated,
        change_percent: change.change_percent,
        at_stake: change.at_stake_cents,
        big: change.big,
        steps: proposal.steps,
        based_on: p.updated_at,
      };
      made++;
      // A proposal made again as it is is left be (neither written nor superseded).
      if (!p.pending || !sameProposal(p.pending, row)) proposals.push(row);
    }
    if (proposals.length === 0 && superseded.length === 0) continue;
    await yieldToPeople(database);
    await saveProposals(db, superseded, proposals, run.runId);
  }
  return made;
}
