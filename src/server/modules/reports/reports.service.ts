import { seesCost, suggestedOrder } from "../../../contract/report-rules.js";
import type {
  ReorderReport,
  SalesQuery,
  SalesReport,
  ShowsReport,
  SlowMoversReport,
  StockValueReport,
  TopSellersReport,
} from "../../../contract/reports.js";
import type { ServiceContext } from "../../context.js";
import type { Database } from "../../db/client.js";
import { requirePermission } from "../../permissions.js";
import { stockAtMarket } from "../prices/market-views.service.js";
import {
  bucketStarts,
  type ProductFigures,
  reorderList,
  salesByBucket,
  showsCompared,
  slowMovers,
  stockNow,
  storedStockValue,
  today,
  topSellers,
} from "./reports.repo.js";

/**
 * Reports read by managers and super_admin, and by inventory users without money at cost (every
 * cost field null for them); a token needs `reports:read` and sees what its maker's role sees.
 */
export function readReports(ctx: ServiceContext): { cost: boolean } {
  requirePermission(ctx, "canViewAudit", "reports:read");
  return { cost: seesCost(ctx.actor.role) };
}

const DAY_MS = 86_400_000;
const dayNumber = (day: string) => Date.parse(`${day}T00:00:00Z`) / DAY_MS;
const dayOf = (n: number) => new Date(n * DAY_MS).toISOString().slice(0, 10);

const productFields = (p: ProductFigures) => ({
  product_id: p.productId,
  barcode: p.barcode,
  product_name: p.productName,
  vendor: p.vendor,
  quantity_on_hand: p.quantityOnHand,
});

export async function salesReport(ctx: ServiceContext, q: SalesQuery): Promise<SalesReport> {
  readReports(ctx);
  const tz = ctx.config.TIMEZONE;
  const days = dayNumber(q.to) - dayNumber(q.from) + 1;
  const previous = { from: dayOf(dayNumber(q.from) - days), to: dayOf(dayNumber(q.from) - 1) };
  const [starts, sums] = await Promise.all([
    bucketStarts(ctx.db, q),
    salesByBucket(ctx.db, { from: q.from, to: q.to, prevFrom: previous.from, by: q.by, tz }),
  ]);
  const buckets = new Map(
    starts.map((start) => [start, { start, units: 0, revenue: 0, sources: {} as SalesReport["buckets"][number]["sources"] }]),
  );
  const bySource = new Map<string, number>();
  const totals = { units: 0, revenue: 0 };
  for (const row of sums.rows) {
    const bucket = buckets.get(row.bucket);
    if (!bucket) continue;
    bucket.units += row.units;
    bucket.revenue += row.revenue;
    const source = bucket.sources[row.source] ?? { units: 0, revenue: 0 };
    source.units += row.units;
    source.revenue += row.revenue;
    bucket.sources[row.source] = source;
    totals.units += row.units;
    totals.revenue += row.revenue;
    bySource.set(row.source, (bySource.get(row.source) ?? 0) + row.units);
  }
  return {
    timezone: tz,
    from: q.from,
    to: q.to,
    by: q.by,
    buckets: [...buckets.values()],
    totals,
    previous: { ...previous, ...sums.previous },
    sources: [...bySource.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([s]) => s),
  };
}

export async function topSellersReport(ctx: ServiceContext, q: { from: string; to: string; limit: number }): Promise<TopSellersReport> {
  readReports(ctx);
  const rows = await topSellers(ctx.db, { ...q, tz: ctx.config.TIMEZONE });
  return { from: q.from, to: q.to, products: rows.map((r) => ({ ...productFields(r.product), units: r.units, revenue: r.revenue })) };
}

export async function slowMoversReport(ctx: ServiceContext, q: { days: number; limit: number }): Promise<SlowMoversReport> {
  const { cost } = readReports(ctx);
  const since = new Date(Date.now() - q.days * DAY_MS);
  const found = await slowMovers(ctx.db, { since, limit: q.limit });
  return {
    days: q.days,
    since: since.toISOString(),
    products: found.products.map((r) => ({
      ...productFields(r.product),
      last_sale_at: r.lastSaleAt ? r.lastSaleAt.toISOString() : null,
      value_at_price: r.valueAtPrice,
      value_at_cost: cost ? r.valueAtCost : null,
    })),
    totals: {
      products: found.totals.products,
      units: found.totals.units,
      value_at_price: found.totals.valueAtPrice,
      value_at_cost: cost ? found.totals.valueAtCost : null,
    },
  };
}

export async function reorderReport(ctx: ServiceContext): Promise<ReorderReport> {
  const { cost } = readReports(ctx);
  const vendors: ReorderReport["vendors"] = [];
  for (const r of await reorderList(ctx.db)) {
    let group = vendors.at(-1);
    if (group?.vendor !== r.product.vendor) {
      group = { vendor: r.product.vendor, products: [] };
      vendors.push(group);
    }
    group.products.push({
      ...productFields(r.product),
      reorder_point: r.reorderPoint,
      suggested_quantity: suggestedOrder(r.product.quantityOnHand, r.reorderPoint),
      cost: cost ? r.cost : null,
    });
  }
  return { vendors };
}

export async function showsReport(ctx: ServiceContext, q: { from: string; to: string }): Promise<ShowsReport> {
  readReports(ctx);
  const rows = await showsCompared(ctx.db, { ...q, tz: ctx.config.TIMEZONE });
  return {
    from: q.from,
    to: q.to,
    shows: rows.map((r) => ({
      id: r.id,
      name: r.name,
      started_by_name: r.startedByName,
      started_at: r.startedAt.toISOString(),
      ended_at: r.endedAt ? r.endedAt.toISOString() : null,
      duration_seconds: r.durationSeconds,
      units: r.units,
      revenue: r.revenue,
    })),
  };
}

/**
 * Stored days of the range (written by the reports job, ReportsJob), and today's stock as its last
 * row when today is in it; and the stock now at market (summed a span of products at a time).
 */
export async function stockValueReport(
  ctx: ServiceContext,
  database: Database,
  q: { from: string; to: string },
): Promise<StockValueReport> {
  const { cost } = readReports(ctx);
  const tz = ctx.config.TIMEZONE;
  const [stored, now, day, market] = await Promise.all([
    storedStockValue(ctx.db, { ...q, tz }),
    stockNow(ctx.db),
    today(ctx.db, tz),
    stockAtMarket(database, ctx.db, ctx.config.CURRENCY),
  ]);
  const rows = stored.filter((r) => r.day !== day);
  if (day >= q.from && day <= q.to) rows.push({ day, ...now });
  return {
    timezone: tz,
    from: q.from,
    to: q.to,
    days: rows.map((r) => ({ day: r.day, units: r.units, at_price: r.atPrice, at_cost: cost ? r.atCost : null })),
    market_now: market,
  };
}
