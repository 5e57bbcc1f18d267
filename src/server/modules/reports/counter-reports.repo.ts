import { sql } from "drizzle-orm";
import type { CreditKind } from "../../../contract/counter.js";
import type { ReportBucket } from "../../../contract/report-rules.js";
import type { Db } from "../../db/client.js";
import { rowsOf } from "../../db/sql.js";
import { dayEnd, dayStart, orderSales, tapSales } from "./reports.repo.js";

// The counter's reports' SQL (issue 40): buys, the margin realised on cards bought in, store credit.
// A "day" is a day in the shop's TIMEZONE (`tz`), as in reports.repo.ts.

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));

export interface BuysRow {
  bucket: string;
  tradeIns: number;
  units: number;
  cash: number;
  credit: number;
}

/** Trade-ins accepted in [from, to] summed per bucket of their acceptance: how many, the units not struck, cash and credit paid. */
export async function buysByBucket(db: Db, q: { from: string; to: string; by: ReportBucket; tz: string }): Promise<BuysRow[]> {
  const unit = sql.raw(`'${q.by}'`);
  const result = await db.execute(sql`
    select date_trunc(${unit}, (t.accepted_at at time zone ${q.tz})::date::timestamp)::date::text as bucket,
      count(*) as trade_ins, sum(coalesce(l.units, 0)) as units, sum(t.cash_cents) as cash, sum(t.credit_cents) as credit
    from trade_ins t
    left join lateral (
      select sum(quantity) as units from trade_in_lines where trade_in_id = t.id and not struck
    ) l on true
    where t.status = 'accepted' and t.accepted_at >= ${dayStart(q.from, q.tz)} and t.accepted_at < ${dayEnd(q.to, q.tz)}
    group by 1`);
  return rowsOf<{ bucket: string; trade_ins: unknown; units: unknown; cash: unknown; credit: unknown }>(result).map((r) => ({
    bucket: r.bucket,
    tradeIns: num(r.trade_ins),
    units: num(r.units),
    cash: num(r.cash),
    credit: num(r.credit),
  }));
}

export interface BoughtInRow {
  productId: number;
  barcode: string;
  productName: string;
  units: number;
  revenue: number;
  paidPerUnit: number;
}

/**
 * Per product bought in through an accepted trade-in and sold in [from, to]: the units and
 * revenue of its sales (sale taps and orders not cancelled, as the sales report counts them) and
 * the average paid per unit over its accepted trade-in lines (rounded to a cent).
 */
export async function boughtInSales(db: Db, q: { from: string; to: string; tz: string }): Promise<BoughtInRow[]> {
  const start = dayStart(q.from, q.tz);
  const end = dayEnd(q.to, q.tz);
  const result = await db.execute(sql`
    with paid as (
      select l.product_id, round(sum(l.paid_unit_cents::numeric * l.quantity) / sum(l.quantity)) as per_unit
      from trade_in_lines l join trade_ins t on t.id = l.trade_in_id
      where t.status = 'accepted' and not l.struck and l.paid_unit_cents is not null and l.quantity > 0
      group by l.product_id
    ), sold as (
      select s.product_id, sum(s.units) as units, sum(s.revenue) as revenue
      from (${tapSales(start, end)} union all ${orderSales(start, end)}) s
      where s.product_id is not null
      group by s.product_id
    )
    select p.id as product_id, p.barcode, p.product_name, sold.units, sold.revenue, paid.per_unit
    from sold join paid on paid.product_id = sold.product_id join products p on p.id = sold.product_id
    where sold.units <> 0`);
  return rowsOf<{ product_id: unknown; barcode: string; product_name: string; units: unknown; revenue: unknown; per_unit: unknown }>(
    result,
  ).map((r) => ({
    productId: num(r.product_id),
    barcode: r.barcode,
    productName: r.product_name,
    units: num(r.units),
    revenue: num(r.revenue),
    paidPerUnit: num(r.per_unit),
  }));
}

/** Store credit now: the sum of the balances and how many customers have one above 0. */
export async function creditOutstanding(db: Db): Promise<{ outstanding: number; customers: number }> {
  const result = await db.execute(
    sql`select coalesce(sum(balance), 0) as outstanding, count(*) filter (where balance > 0) as customers from customer_credit`,
  );
  const [row] = rowsOf<{ outstanding: unknown; customers: unknown }>(result);
  return { outstanding: num(row?.outstanding), customers: num(row?.customers) };
}

/** The ledger's entries written in [from, to], summed by kind (signed cents). */
export async function creditMovements(db: Db, q: { from: string; to: string; tz: string }): Promise<Record<CreditKind, number>> {
  const result = await db.execute(sql`
    select kind, sum(amount) as amount from credit_entries
    where created_at >= ${dayStart(q.from, q.tz)} and created_at < ${dayEnd(q.to, q.tz)}
    group by kind`);
  const sums: Record<CreditKind, number> = { trade_in: 0, order: 0, adjustment: 0, expiry: 0 };
  for (const r of rowsOf<{ kind: CreditKind; amount: unknown }>(result)) sums[r.kind] = num(r.amount);
  return sums;
}
