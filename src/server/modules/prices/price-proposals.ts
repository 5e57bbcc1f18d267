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
import { type ProposalRow, pricedProducts, productIdRange, saveProposals } from "./prices.repo.js";

/** Products the rules price per statement. */
const PROPOSE_PAGE = 2_000;

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
  for (let after = 0; ; ) {
    // A range of ids, not `limit`: the planner then walks these products only, whatever it thinks of the table.
    await yieldToPeople(database);
    const range = await productIdRange(db, after, PROPOSE_PAGE);
    if (!range) break;
    await yieldToPeople(database);
    const page = await pricedProducts(db, { after, last: range.last, kind: rules.price_kind, currency: run.currency });
    after = range.last;
    if (page.length === 0) continue;
    const proposals: ProposalRow[] = [];
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
      if (proposal.kind !== "price" || proposal.price === p.price) continue;
      const change = describeChange(p.price, proposal.price, p.quantity_on_hand, rules);
      proposals.push({
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
      });
    }
    const ids = page.map((p) => p.id);
    await yieldToPeople(database);
    await saveProposals(db, ids, proposals, run.runId);
    made += proposals.length;
  }
  return made;
}
