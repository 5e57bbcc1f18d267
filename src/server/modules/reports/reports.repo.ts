import { type SQL, sql } from "drizzle-orm";
import type { ReportBucket } from "../../../contract/report-rules.js";
import type { Db } from "../../db/client.js";
import { rowsOf } from "../../db/sql.js";
import { addDays, splitByMonths } from "./report-days.js";

/**
 * Reports' SQL (docs/decisions/0011-reports-from-the-audit.md). Every "day" is a day in the
 * shop's TIMEZONE (`tz`, an IANA name): a day's range is [day 00:00, next day 00:00) there.
 *
 * A sale tap is a quantity audit `adjustment` made in a show, or from the streamer view
 * ("Streamer adjustment"), or the streamer's "Undo". It counts `-quantity_change` units: a
 * negative change that is not an undo is a sale, a positive undo takes a sale back (in the
 * bucket of the undo); an undone addition and an addition count nothing. Its value is its unit
 * price (quantity_audit.unit_price, migration 0011: the product's price at the time), a missing
 * price 0. This predicate is the one of the partial indexes quantity_audit_sale_*_idx: keep them equal.
 */
const SALE_TAP = sql.raw(
  `q.transaction_type = 'adjustment' and (q.show_id is not null or q.notes in ('Streamer adjustment', 'Undo'))` +
    ` and case when q.notes = 'Undo' then q.quantity_change > 0 else q.quantity_change < 0 end`,
);

/**
 * Every sale tap in [start, end) as (at, product_id, source, units, revenue), by show or stream.
 * What the job rolls up (sales_daily, sales_monthly): a tap is never taken back later.
 */
export function tapSales(start: SQL, end: SQL): SQL {
  return sql`
    select q.timestamp as at, q.product_id,
      case when q.show_id is not null then 'show' else 'stream' end as source,
      -q.quantity_change as units, -q.quantity_change::bigint * coalesce(q.unit_price, 0) as revenue
    from quantity_audit q
    where ${SALE_TAP} and q.timestamp >= ${start} and q.timestamp < ${end}`;
}

/**
 * Every order line in [start, end) of an order not cancelled, as tapSales answers them (source
 * `order:<channel>`, valued at the line's unit price, else the product's price then). Never rolled
 * up: an order can be cancelled any time later, and orders are few beside the taps.
 */
export function orderSales(start: SQL, end: SQL): SQL {
  return sql`
    select q.timestamp as at, q.product_id, 'order:' || o.channel as source,
      -q.quantity_change as units, -q.quantity_change::bigint * coalesce(q.unit_price, 0) as revenue
    from orders o join quantity_audit q on q.order_id = o.id
    where o.status = 'completed' and q.quantity_change < 0 and q.timestamp >= ${start} and q.timestamp < ${end}`;
}

/** The instant a day (YYYY-MM-DD) starts in `tz`. */
export const dayStart = (day: string, tz: string) => sql`(${day}::date::timestamp at time zone ${tz})`;
/** The instant the day after `day` starts in `tz`. */
export const dayEnd = (day: string, tz: string) => sql`((${day}::date + 1)::timestamp at time zone ${tz})`;

const num = (v: unknown): number => (v === null || v === undefined ? 0 : Number(v));
/** An instant as epoch milliseconds in SQL (raw statements answer timestamps as text), and back. */
const epochMs = (column: SQL) => sql`(extract(epoch from ${column}) * 1000)::float8`;
const dateOf = (ms: unknown): Date | null => (ms === null || ms === undefined ? null : new Date(Number(ms)));

export interface SalesRow {
  bucket: string;
  source: string;
  units: number;
  revenue: number;
}

/**
 * Sales of [from, to] summed per bucket and source, and the totals of [prevFrom, from). Days the
 * job has rolled up come from sales_daily; later days from the audit, first summed per
 * 15-minute slot in UTC (cheap: no time zone per row) and only the slots put into days: every
 * UTC offset in use is a multiple of 15 minutes, so a slot never spans two days of any zone.
 */
export async function salesByBucket(
  db: Db,
  q: { from: string; to: string; prevFrom: string; by: ReportBucket; tz: string },
): Promise<{ rows: SalesRow[]; previous: { units: number; revenue: number } }> {
  const unit = sql.raw(`'${q.by}'`);
  const through = await salesRolledUpThrough(db, q.tz);
  // The first day read from the audit: the day after the roll-up (or the range's first).
  const rawFrom = through !== null && through >= q.prevFrom ? addDays(through, 1) : q.prevFrom;
  const result = await db.execute(sql`
    with slots as (
      select date_bin('15 minutes', s.at, timestamptz '2000-01-01 00:00:00+00') as slot, s.source,
        sum(s.units) as units, sum(s.revenue) as revenue
      from (${tapSales(dayStart(rawFrom, q.tz), dayEnd(q.to, q.tz))}
        union all ${orderSales(dayStart(q.prevFrom, q.tz), dayEnd(q.to, q.tz))}) s
      group by 1, 2
    ), days as (
      select (slot at time zone ${q.tz})::date as day, source, units, revenue from slots
      union all
      select day, source, units, revenue from sales_daily
      where day >= ${q.prevFrom}::date and day <= ${q.to}::date and day < ${rawFrom}::date
    )
    select case when day < ${q.from}::date then null else date_trunc(${unit}, day::timestamp)::date::text end as bucket,
      source, sum(units) as units, sum(revenue) as revenue
    from days group by 1, 2`);
  const rows: SalesRow[] = [];
  const previous = { units: 0, revenue: 0 };
  for (const r of rowsOf<{ bucket: string | null; source: string; units: unknown; revenue: unknown }>(result)) {
    if (r.bucket === null) {
      previous.units += num(r.units);
      previous.revenue += num(r.revenue);
    } else rows.push({ bucket: r.bucket, source: r.source, units: num(r.units), revenue: num(r.revenue) });
  }
  return { rows, previous };
}

/** The last day rolled up into sales_daily and sales_monthly in `tz`, or null (none, or counted in another zone). */
export async function salesRolledUpThrough(db: Db, tz: string): Promise<string | null> {
  const result = await db.execute(sql`select through::text as through from report_rollups where name = 'sales' and timezone = ${tz}`);
  return rowsOf<{ through: string | null }>(result)[0]?.through ?? null;
}

/**
 * Adds the sales of the days after the last one rolled up, through `through`, to sales_daily and
 * sales_monthly, and moves the mark (everything again when `rebuild`, or when the roll-up was
 * counted in another time zone). Answers the days added. Run it under withFillLock.
 */
export async function rollUpSales(db: Db, q: { through: string; tz: string; rebuild?: boolean }): Promise<number> {
  const [mark] = rowsOf<{ timezone: string; through: string | null }>(
    await db.execute(sql`select timezone, through::text as through from report_rollups where name = 'sales' for update`),
  );
  const after = mark && mark.timezone === q.tz && !q.rebuild ? mark.through : null;
  if (after === null) {
    await db.execute(sql`delete from sales_daily`);
    await db.execute(sql`delete from sales_monthly`);
  }
  if (after !== null && after >= q.through) return 0;
  const start = after === null ? sql`'-infinity'::timestamptz` : dayEnd(after, q.tz);
  const end = dayEnd(q.through, q.tz);
  await db.execute(sql`
    insert into sales_daily (day, source, units, revenue)
    select (slot at time zone ${q.tz})::date, source, sum(units), sum(revenue) from (
      select date_bin('15 minutes', s.at, timestamptz '2000-01-01 00:00:00+00') as slot, s.source,
        sum(s.units) as units, sum(s.revenue) as revenue
      from (${tapSales(start, end)}) s group by 1, 2
    ) slots group by 1, 2
    on conflict (day, source) do update
      set units = sales_daily.units + excluded.units, revenue = sales_daily.revenue + excluded.revenue`);
  await db.execute(sql`
    insert into sales_monthly (month, product_id, units, revenue)
    select date_trunc('month', s.at at time zone ${q.tz})::date, s.product_id, sum(s.units), sum(s.revenue)
    from (${tapSales(start, end)}) s where s.product_id is not null group by 1, 2
    on conflict (month, product_id) do update
      set units = sales_monthly.units + excluded.units, revenue = sales_monthly.revenue + excluded.revenue`);
  await db.execute(sql`
    insert into report_rollups (name, timezone, through) values ('sales', ${q.tz}, ${q.through}::date)
    on conflict (name) do update set timezone = excluded.timezone, through = excluded.through, rolled_up_at = now()`);
  if (after === null) {
    const [first] = rowsOf<{ days: unknown }>(await db.execute(sql`select count(distinct day) as days from sales_daily`));
    return num(first?.days);
  }
  return Math.round((Date.parse(`${q.through}T00:00:00Z`) - Date.parse(`${after}T00:00:00Z`)) / 86_400_000);
}

/** The first day of each bucket that [from, to] touches, in order. */
export async function bucketStarts(db: Db, q: { from: string; to: string; by: ReportBucket }): Promise<string[]> {
  const unit = sql.raw(`'${q.by}'`);
  const interval = sql.raw(`'1 ${q.by}'`);
  const result = await db.execute(sql`
    select d::date::text as start from generate_series(date_trunc(${unit}, ${q.from}::date::timestamp),
      ${q.to}::date::timestamp, ${interval}::interval) d`);
  return rowsOf<{ start: string }>(result).map((r) => r.start);
}

export interface ProductFigures {
  productId: number;
  barcode: string;
  productName: string;
  vendor: string;
  quantityOnHand: number;
}

/**
 * The products that sold most units in [from, to], with their revenue: whole months rolled up
 * from sales_monthly, the days around them from the audit.
 */
export async function topSellers(db: Db, q: { from: string; to: string; tz: string; limit: number }) {
  const split = splitByMonths(q.from, q.to, await salesRolledUpThrough(db, q.tz));
  const parts: SQL[] = split.days.map(
    ([a, b]) => sql`select s.product_id, s.units, s.revenue from (${tapSales(dayStart(a, q.tz), dayEnd(b, q.tz))}) s`,
  );
  parts.push(sql`select s.product_id, s.units, s.revenue from (${orderSales(dayStart(q.from, q.tz), dayEnd(q.to, q.tz))}) s`);
  if (split.months) {
    parts.push(
      sql`select product_id, units, revenue from sales_monthly where month between ${split.months[0]}::date and ${split.months[1]}::date`,
    );
  }
  const result = await db.execute(sql`
    select p.id, p.barcode, p.product_name, p.vendor, p.quantity_on_hand, t.units, t.revenue
    from (
      select u.product_id, sum(u.units) as units, sum(u.revenue) as revenue
      from (${sql.join(parts, sql` union all `)}) u
      where u.product_id is not null group by 1
    ) t join products p on p.id = t.product_id
    where t.units > 0
    order by t.units desc, t.revenue desc, p.id limit ${q.limit}`);
  return rowsOf<{
    id: number;
    barcode: string;
    product_name: string;
    vendor: string;
    quantity_on_hand: number;
    units: unknown;
    revenue: unknown;
  }>(result).map((r) => ({
    product: { productId: r.id, barcode: r.barcode, productName: r.product_name, vendor: r.vendor, quantityOnHand: r.quantity_on_hand },
    units: num(r.units),
    revenue: num(r.revenue),
  }));
}

/**
 * Active products with stock that existed before `since` and have sold nothing since (their last
 * sale tap, by the product's own index), most value at price first; totals over all of them.
 */
export async function slowMovers(db: Db, q: { since: Date; limit: number }) {
  const result = await db.execute(sql`
    with slow as (
      select p.id, p.barcode, p.product_name, p.vendor, p.quantity_on_hand, ${epochMs(sql`ls.at`)} as last_sale_at,
        p.quantity_on_hand::bigint * coalesce(p.price, 0) as value_at_price,
        p.quantity_on_hand::bigint * coalesce(p.cost, 0) as value_at_cost
      from products p
      left join lateral (
        select max(at) as at from (
          (select q.timestamp as at from quantity_audit q
            where q.product_id = p.id and ${SALE_TAP} and q.quantity_change < 0
            order by q.timestamp desc limit 1)
          union all
          (select q.timestamp from quantity_audit q join orders o on o.id = q.order_id and o.status = 'completed'
            where q.product_id = p.id and q.order_id is not null and q.quantity_change < 0
            order by q.timestamp desc limit 1)
        ) last_sales
      ) ls on true
      where p.is_active and p.quantity_on_hand > 0 and p.created_at < ${q.since}
        and (ls.at is null or ls.at < ${q.since})
    )
    select slow.*, count(*) over () as total_products, sum(quantity_on_hand) over () as total_units,
      sum(value_at_price) over () as total_price, sum(value_at_cost) over () as total_cost
    from slow order by value_at_price desc, quantity_on_hand desc, id limit ${q.limit}`);
  const rows = rowsOf<{
    id: number;
    barcode: string;
    product_name: string;
    vendor: string;
    quantity_on_hand: number;
    last_sale_at: number | null;
    value_at_price: unknown;
    value_at_cost: unknown;
    total_products: unknown;
    total_units: unknown;
    total_price: unknown;
    total_cost: unknown;
  }>(result);
  const first = rows[0];
  return {
    products: rows.map((r) => ({
      product: { productId: r.id, barcode: r.barcode, productName: r.product_name, vendor: r.vendor, quantityOnHand: r.quantity_on_hand },
      lastSaleAt: dateOf(r.last_sale_at),
      valueAtPrice: num(r.value_at_price),
      valueAtCost: num(r.value_at_cost),
    })),
    totals: {
      products: num(first?.total_products),
      units: num(first?.total_units),
      valueAtPrice: num(first?.total_price),
      valueAtCost: num(first?.total_cost),
    },
  };
}

/** Active products at or under their reorder point (the reorder rule, migration 0020), by vendor and name. */
export async function reorderList(db: Db) {
  const result = await db.execute(sql`
    select p.id, p.barcode, p.product_name, p.vendor, p.quantity_on_hand, p.reorder_point, p.cost
    from products p
    where p.is_active and at_or_under_reorder_point(p.quantity_on_hand, p.reorder_point)
    order by p.vendor, p.product_name, p.id`);
  return rowsOf<{
    id: number;
    barcode: string;
    product_name: string;
    vendor: string;
    quantity_on_hand: number;
    reorder_point: number;
    cost: number | null;
  }>(result).map((r) => ({
    product: { productId: r.id, barcode: r.barcode, productName: r.product_name, vendor: r.vendor, quantityOnHand: r.quantity_on_hand },
    reorderPoint: r.reorder_point,
    cost: r.cost,
  }));
}

/** Shows started in [from, to], in start order, with the units and revenue of their sale taps. */
export async function showsCompared(db: Db, q: { from: string; to: string; tz: string }) {
  const result = await db.execute(sql`
    select s.id, s.name, s.started_by_name, ${epochMs(sql`s.started_at`)} as started_at, ${epochMs(sql`s.ended_at`)} as ended_at,
      extract(epoch from coalesce(s.ended_at, now()) - s.started_at)::bigint as duration,
      coalesce(t.units, 0) as units, coalesce(t.revenue, 0) as revenue
    from shows s
    left join lateral (
      select sum(-q.quantity_change) as units, sum(-q.quantity_change::bigint * coalesce(q.unit_price, 0)) as revenue
      from quantity_audit q where q.show_id = s.id and ${SALE_TAP}
    ) t on true
    where s.started_at >= ${dayStart(q.from, q.tz)} and s.started_at < ${dayEnd(q.to, q.tz)}
    order by s.started_at, s.id`);
  return rowsOf<{
    id: number;
    name: string;
    started_by_name: string;
    started_at: number;
    ended_at: number | null;
    duration: unknown;
    units: unknown;
    revenue: unknown;
  }>(result).map((r) => ({
    id: r.id,
    name: r.name,
    startedByName: r.started_by_name,
    startedAt: dateOf(r.started_at) as Date,
    endedAt: dateOf(r.ended_at),
    durationSeconds: Math.max(0, num(r.duration)),
    units: num(r.units),
    revenue: num(r.revenue),
  }));
}

export interface StockValueRow {
  day: string;
  units: number;
  atPrice: number;
  atCost: number;
}

/** Stored days of [from, to] counted in `tz`. */
export async function storedStockValue(db: Db, q: { from: string; to: string; tz: string }): Promise<StockValueRow[]> {
  const result = await db.execute(sql`
    select day::text as day, units, at_price, at_cost from stock_value_daily
    where day between ${q.from}::date and ${q.to}::date and timezone = ${q.tz} order by day`);
  return rowsOf<{ day: string; units: unknown; at_price: unknown; at_cost: unknown }>(result).map((r) => ({
    day: r.day,
    units: num(r.units),
    atPrice: num(r.at_price),
    atCost: num(r.at_cost),
  }));
}

/** The stock now: units, at price and at cost (every product, disabled ones too: the stock is there). */
export async function stockNow(db: Db): Promise<Omit<StockValueRow, "day">> {
  const result = await db.execute(sql`
    select coalesce(sum(quantity_on_hand), 0) as units,
      coalesce(sum(quantity_on_hand::bigint * coalesce(price, 0)), 0) as at_price,
      coalesce(sum(quantity_on_hand::bigint * coalesce(cost, 0)), 0) as at_cost
    from products`);
  const [r] = rowsOf<{ units: unknown; at_price: unknown; at_cost: unknown }>(result);
  return { units: num(r?.units), atPrice: num(r?.at_price), atCost: num(r?.at_cost) };
}

/** Yesterday in `tz`, and the last day that ended at least `settleMinutes` ago. */
export async function lastClosedDay(db: Db, tz: string, settleMinutes: number): Promise<{ yesterday: string; settled: string }> {
  const result = await db.execute(sql`
    select ((now() at time zone ${tz})::date - 1)::text as yesterday,
      (((now() - make_interval(mins => ${settleMinutes})) at time zone ${tz})::date - 1)::text as settled`);
  const [r] = rowsOf<{ yesterday: string; settled: string }>(result);
  return { yesterday: r?.yesterday as string, settled: r?.settled as string };
}

/** Today's date in `tz`. */
export async function today(db: Db, tz: string): Promise<string> {
  const result = await db.execute(sql`select (now() at time zone ${tz})::date::text as today`);
  return rowsOf<{ today: string }>(result)[0]?.today as string;
}

/** Drops the days counted in another time zone (TIMEZONE changed): they are counted again. */
export async function dropOtherZones(db: Db, tz: string): Promise<number> {
  const result = await db.execute(sql`delete from stock_value_daily where timezone <> ${tz}`);
  return (result as unknown as { rowCount?: number }).rowCount ?? 0;
}

/**
 * Writes the stock value at the end of every day from the first day the quantity audit knows up
 * to `lastDay` that has no row yet (days already written keep theirs). A day's value is today's
 * stock less every change made after the day ended: the audit replayed back from now, at today's
 * prices. Answers the number of days written.
 */
export async function fillStockValueDays(db: Db, q: { lastDay: string; tz: string }): Promise<number> {
  const result = await db.execute(sql`
    with bounds as (
      select (min(d)::date) as first from (
        select (min(timestamp) at time zone ${q.tz})::date as d from quantity_audit
      ) m
    ), wanted as (
      select g::date as day from bounds, generate_series(bounds.first, ${q.lastDay}::date, '1 day') g
      where bounds.first is not null
        and not exists (select 1 from stock_value_daily v where v.day = g::date)
    ), first_missing as (select min(day) as day from wanted),
    changes as (
      select (slot at time zone ${q.tz})::date as day, sum(units) as units, sum(at_price) as at_price, sum(at_cost) as at_cost
      from (
        select date_bin('15 minutes', c.timestamp, timestamptz '2000-01-01 00:00:00+00') as slot,
          sum(c.quantity_change) as units,
          sum(c.quantity_change::bigint * coalesce(p.price, 0)) as at_price,
          sum(c.quantity_change::bigint * coalesce(p.cost, 0)) as at_cost
        from quantity_audit c left join products p on p.id = c.product_id, first_missing f
        where c.timestamp >= ((f.day + 1)::timestamp at time zone ${q.tz})
        group by 1
      ) s group by 1
    ), now_stock as (
      select coalesce(sum(quantity_on_hand), 0) as units,
        coalesce(sum(quantity_on_hand::bigint * coalesce(price, 0)), 0) as at_price,
        coalesce(sum(quantity_on_hand::bigint * coalesce(cost, 0)), 0) as at_cost
      from products
    )
    insert into stock_value_daily (day, timezone, units, at_price, at_cost)
    select w.day, ${q.tz},
      n.units - coalesce(sum(c.units), 0), n.at_price - coalesce(sum(c.at_price), 0), n.at_cost - coalesce(sum(c.at_cost), 0)
    from wanted w cross join now_stock n left join changes c on c.day > w.day
    group by w.day, n.units, n.at_price, n.at_cost
    on conflict (day) do nothing`);
  return (result as unknown as { rowCount?: number }).rowCount ?? 0;
}

/** Runs `work` only when no other process is filling at the same time (an advisory lock of the transaction). */
export async function withFillLock<T>(db: Db, work: (tx: Db) => Promise<T>): Promise<T | undefined> {
  return db.transaction(async (tx) => {
    const result = await tx.execute(sql`select pg_try_advisory_xact_lock(7345222) as locked`);
    if (!rowsOf<{ locked: boolean }>(result)[0]?.locked) return undefined;
    return work(tx as unknown as Db);
  });
}
