import { BOUGHT_IN_MARGIN_RULE, type BoughtInMarginReport, type BuysReport, type CreditReport } from "../../../contract/counter-reports.js";
import type { SalesQuery } from "../../../contract/reports.js";
import type { ServiceContext } from "../../context.js";
import { boughtInSales, buysByBucket, creditMovements, creditOutstanding } from "./counter-reports.repo.js";
import { bucketStarts } from "./reports.repo.js";
import { readReports } from "./reports.service.js";

/** Buys over time: trade-ins accepted per day, week or month of the range, with the cash and credit paid. */
export async function buysReport(ctx: ServiceContext, q: SalesQuery): Promise<BuysReport> {
  readReports(ctx);
  const tz = ctx.config.TIMEZONE;
  const [starts, rows] = await Promise.all([bucketStarts(ctx.db, q), buysByBucket(ctx.db, { ...q, tz })]);
  const buckets = new Map(starts.map((start) => [start, { start, trade_ins: 0, units: 0, cash: 0, credit: 0 }]));
  const totals = { trade_ins: 0, units: 0, cash: 0, credit: 0 };
  for (const row of rows) {
    const bucket = buckets.get(row.bucket);
    if (!bucket) continue;
    bucket.trade_ins += row.tradeIns;
    bucket.units += row.units;
    bucket.cash += row.cash;
    bucket.credit += row.credit;
    totals.trade_ins += row.tradeIns;
    totals.units += row.units;
    totals.cash += row.cash;
    totals.credit += row.credit;
  }
  return { timezone: tz, from: q.from, to: q.to, by: q.by, buckets: [...buckets.values()], totals };
}

/** The margin realised on cards sold that were bought in (BOUGHT_IN_MARGIN_RULE); cost and margin null for inventory users. */
export async function boughtInMarginReport(
  ctx: ServiceContext,
  q: { from: string; to: string; limit: number },
): Promise<BoughtInMarginReport> {
  const { cost: seesCost } = readReports(ctx);
  const tz = ctx.config.TIMEZONE;
  const rows = (await boughtInSales(ctx.db, { from: q.from, to: q.to, tz })).map((r) => {
    const cost = r.units * r.paidPerUnit;
    return { ...r, cost, margin: r.revenue - cost };
  });
  rows.sort((a, b) => (seesCost ? b.margin - a.margin : b.revenue - a.revenue) || a.productId - b.productId);
  const sum = (pick: (r: (typeof rows)[number]) => number) => rows.reduce((s, r) => s + pick(r), 0);
  return {
    timezone: tz,
    from: q.from,
    to: q.to,
    rule: BOUGHT_IN_MARGIN_RULE,
    products: rows.slice(0, q.limit).map((r) => ({
      product_id: r.productId,
      barcode: r.barcode,
      product_name: r.productName,
      units: r.units,
      revenue: r.revenue,
      cost: seesCost ? r.cost : null,
      margin: seesCost ? r.margin : null,
      paid_per_unit: seesCost ? r.paidPerUnit : null,
    })),
    totals: {
      units: sum((r) => r.units),
      revenue: sum((r) => r.revenue),
      cost: seesCost ? sum((r) => r.cost) : null,
      margin: seesCost ? sum((r) => r.margin) : null,
    },
  };
}

/** Store credit outstanding now (the sum of the balances), and what the ledger wrote in the range by kind. */
export async function creditReport(ctx: ServiceContext, q: { from: string; to: string }): Promise<CreditReport> {
  readReports(ctx);
  const tz = ctx.config.TIMEZONE;
  const [now, movements] = await Promise.all([creditOutstanding(ctx.db), creditMovements(ctx.db, { ...q, tz })]);
  return { timezone: tz, from: q.from, to: q.to, outstanding: now.outstanding, customers_with_balance: now.customers, movements };
}
