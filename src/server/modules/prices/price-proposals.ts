import { sql } from "drizzle-orm";
import {
  DEFAULT_PRICING_RULES,
  describeChange,
  type PriceStep,
  type PricingRules,
  pricingRulesSchema,
  proposePrice,
} from "../../../contract/pricing-rules.js";
import type { Condition } from "../../../contract/rules.js";
import type { Database, Db } from "../../db/client.js";
import { yieldToPeople } from "../../db/people-first.js";
import { jsonReadOnce, rowsOf } from "../../db/sql.js";
import { withTransaction } from "../../db/tx.js";
import { productIdRange } from "./prices.repo.js";

/** Products the rules price per statement. */
const PROPOSE_PAGE = 2_000;

/** The shop's repricing rules: the stored ones, or the defaults until a manager saves some. */
export async function loadRules(db: Db): Promise<PricingRules> {
  const [row] = rowsOf<{ rules: unknown }>(await db.execute(sql`select rules from pricing_rules where id = 1`));
  if (!row) return DEFAULT_PRICING_RULES;
  const parsed = pricingRulesSchema.safeParse(row.rules);
  return parsed.success ? parsed.data : DEFAULT_PRICING_RULES;
}

interface ProposalRow {
  product_id: number;
  old_price: number | null;
  new_price: number;
  market: number;
  estimated: boolean;
  change_percent: number | null;
  at_stake: number;
  big: boolean;
  steps: PriceStep[];
  based_on: string;
}

interface PricedProduct {
  id: number;
  price: number | null;
  cost: number | null;
  condition: Condition | null;
  vendor: string;
  set_name: string | null;
  quantity_on_hand: number;
  updated_at: string;
  price_frozen: boolean;
  market: number | null;
  low: number | null;
  mid: number | null;
  high: number | null;
  direct_low: number | null;
  by_condition: Partial<Record<Condition, number>> | null;
}

/**
 * Runs the rules over every active, ungraded product with a market price in the shop's currency
 * (its latest, from whichever feed saw it last) and keeps one pending proposal per product whose
 * price would change: a new run's proposal replaces the one before (superseded); a product now
 * priced right has none. Graded slabs are left out: a raw card's market price is not theirs.
 * Returns the proposals made.
 */
export async function makeProposals(database: Database, run: { runId: number | null; currency: string }): Promise<number> {
  const db = database.bulk.db;
  const rules = await loadRules(db);
  const kindColumn = sql.raw(rules.price_kind);
  let made = 0;
  for (let after = 0; ; ) {
    // A range of ids, not `limit`: the planner then walks these products only, whatever it thinks of the table.
    await yieldToPeople(database);
    const range = await productIdRange(db, after, PROPOSE_PAGE);
    if (!range) break;
    await yieldToPeople(database);
    const page = rowsOf<PricedProduct>(
      await db.execute(sql`
        select p.id, p.price, p.cost, p.condition, p.vendor, p.set_name, p.quantity_on_hand,
          to_char(p.updated_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_at,
          coalesce(m.price_frozen, false) as price_frozen,
          l.market, l.low, l.mid, l.high, l.direct_low, l.by_condition
        from products p
        left join product_market m on m.product_id = p.id
        join lateral (
          select ${kindColumn} as market, low, mid, high, direct_low, by_condition from market_prices mp
          where mp.product_id = p.id and mp.currency = ${run.currency}
          order by mp.checked_on desc, mp.day desc, mp.feed_id limit 1
        ) l on true
        where p.id > ${after} and p.id <= ${range.last} and p.is_active and p.grader is null`),
    );
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
    await withTransaction(db, async (tx) => {
      await tx.execute(sql`
        update price_proposals set status = 'superseded', decided_at = now()
        where status = 'pending' and product_id = any(array(select json_array_elements_text(${jsonReadOnce(ids)})::int))`);
      if (proposals.length === 0) return;
      await tx.execute(sql`
        insert into price_proposals (product_id, run_id, old_price, new_price, market, estimated, change_percent, at_stake, big, steps, based_on)
        select c.product_id, ${run.runId}, c.old_price, c.new_price, c.market, c.estimated, c.change_percent, c.at_stake, c.big, c.steps, c.based_on
        from json_to_recordset(${jsonReadOnce(proposals)}) as c(product_id int, old_price int, new_price int, market int, estimated boolean,
          change_percent float8, at_stake int, big boolean, steps jsonb, based_on timestamptz)`);
    });
    made += proposals.length;
  }
  return made;
}
