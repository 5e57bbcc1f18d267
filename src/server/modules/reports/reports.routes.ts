import {
  BOUGHT_IN_MARGIN_RULE,
  boughtInMarginReportSchema,
  buysReportSchema,
  creditReportSchema,
} from "../../../contract/counter-reports.js";
import {
  dateRangeQuerySchema,
  reorderReportSchema,
  salesQuerySchema,
  salesReportSchema,
  showsReportSchema,
  slowMoversQuerySchema,
  slowMoversReportSchema,
  stockValueReportSchema,
  topSellersQuerySchema,
  topSellersReportSchema,
} from "../../../contract/reports.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { boughtInMarginReport, buysReport, creditReport } from "./counter-reports.service.js";
import { reorderReport, salesReport, showsReport, slowMoversReport, stockValueReport, topSellersReport } from "./reports.service.js";

const tags = ["reports"];
const security = SESSION_OR_TOKEN;
/**
 * Managers and super_admin, and inventory users without money at cost (the service nulls it);
 * a token with `reports:read` (not `audit:read`), seeing what its maker sees.
 */
const config = { permission: "canViewAudit", scope: "reports:read" } as const;
const DAYS =
  "Days are days in the server's TIMEZONE setting (an IANA name); money in cents. Managers and super_admin, inventory " +
  "users without money at cost, and API tokens with the `reports:read` scope (seeing what their maker sees).";
const SALES =
  "Units sold are stock taken out by sales: taps with a negative change in the streamer view or in a show (an " +
  "`Undo` that puts a sale back takes it off, in its own bucket); revenue is each sale's units times the product's " +
  "price when it was made (no price counts 0).";

/** Reports (src/contract/reports.ts), summed in SQL over the quantity audit (reports.repo.ts). */
export async function reportsRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/reports/sales",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Units and revenue per day, week or month of a range, by source, with the totals of the range before it",
        description: `${DAYS} ${SALES} Sources: \`show\`, \`stream\` (taps outside a show), \`order:<channel>\`. Weeks start on Monday; the first and last bucket may reach outside the range but count only its days. \`previous\` sums the same number of days just before \`from\`.`,
        querystring: salesQuerySchema,
        response: { 200: salesReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => salesReport(serviceContext(app, request), request.query),
  );

  app.get(
    "/reports/top-sellers",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The products that sold most units in a range",
        description: `${DAYS} ${SALES}`,
        querystring: topSellersQuerySchema,
        response: { 200: topSellersReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => topSellersReport(serviceContext(app, request), request.query),
  );

  app.get(
    "/reports/stock-value",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Stock per day of a range: units, value at price and at cost (at_cost null for inventory users)",
        description: `${DAYS} One row per day that has one: the stock at the day's end, kept in stock_value_daily by a daily job and filled in for missing days at start-up by replaying the quantity audit back from the stock now (at today's prices); today's row is the stock now. \`market_now\`: the stock now at each product's latest market price (as the inventory shows it), with the products in stock that have none (or are graded) counted apart.`,
        querystring: dateRangeQuerySchema,
        response: { 200: stockValueReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => stockValueReport(serviceContext(app, request), app.database, request.query),
  );

  app.get(
    "/reports/slow-movers",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Active products with stock and no sale in the last 30, 60 or 90 days, with the value they tie up",
        description: `${DAYS} A product counts when it existed before the period and has not sold since (a sale: a tap taking stock out in the streamer view or a show). Most value at price first; \`totals\` cover every slow mover. value_at_cost is null for inventory users.`,
        querystring: slowMoversQuerySchema,
        response: { 200: slowMoversReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => slowMoversReport(serviceContext(app, request), request.query),
  );

  app.get(
    "/reports/reorder",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Active products whose stock is at or under their reorder_point, by vendor",
        description: `${DAYS} \`suggested_quantity\` brings the stock back above the point (reorder_point - stock + 1). \`cost\` is null for inventory users.`,
        response: { 200: reorderReportSchema, ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => reorderReport(serviceContext(app, request)),
  );

  app.get(
    "/reports/shows",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Shows started in a range compared: units, revenue and duration of each",
        description: `${DAYS} ${SALES}`,
        querystring: dateRangeQuerySchema,
        response: { 200: showsReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => showsReport(serviceContext(app, request), request.query),
  );

  // The counter's reports (issue 40): trade-ins bought, the margin on what was bought in, store credit owed.
  app.get(
    "/reports/buys",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Trade-ins accepted per day, week or month of a range: how many, units, cash and store credit paid",
        description: `${DAYS} A trade-in counts in the bucket of the day it was accepted; units are its lines not struck. Weeks start on Monday; the first and last bucket may reach outside the range but count only its days.`,
        querystring: salesQuerySchema,
        response: { 200: buysReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => buysReport(serviceContext(app, request), request.query),
  );

  app.get(
    "/reports/bought-in-margin",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The margin realised on cards sold in a range that were bought in through trade-ins: revenue against the price paid",
        description: `${DAYS} ${BOUGHT_IN_MARGIN_RULE} Most margin first (most revenue for inventory users, whose cost, margin and paid_per_unit are null); \`totals\` cover every product.`,
        querystring: topSellersQuerySchema,
        response: { 200: boughtInMarginReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => boughtInMarginReport(serviceContext(app, request), request.query),
  );

  app.get(
    "/reports/credit",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Store credit outstanding now (the sum of every balance) and what the ledger wrote in a range, by kind",
        description: `${DAYS} \`outstanding\` is what the shop owes in store credit now, whatever the range; \`movements\` sums the ledger's entries written in the range (signed cents). No customer is named.`,
        querystring: dateRangeQuerySchema,
        response: { 200: creditReportSchema, ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => creditReport(serviceContext(app, request), request.query),
  );
}
