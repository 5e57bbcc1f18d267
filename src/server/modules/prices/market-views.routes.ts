import {
  MARKET_QUOTE_IDS_MAX,
  marketQuotesAnswerSchema,
  marketQuotesQuerySchema,
  underMarketAnswerSchema,
  underMarketQuerySchema,
} from "../../../contract/market-views.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { pricedUnderMarket, quotesFor } from "./market-views.service.js";

const tags = ["prices"];
const security = SESSION_OR_TOKEN;

/** Market prices where people look: beside the price in the inventory's rows, and the products priced under market (src/contract/market-views.ts). */
export async function marketViewsRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/prices/market",
    {
      config: { scope: "products:read" },
      schema: {
        tags,
        security,
        summary: "The latest market price of each of these products (the rows a screen shows), and the day it was last seen",
        description:
          `Every signed-in user; API tokens with \`products:read\`. \`ids\`: product ids, comma-separated, at most ${MARKET_QUOTE_IDS_MAX}. ` +
          "Each product with a market price in the shop's currency (the Near Mint market price from the feed that saw it last, " +
          "within a year) gets one quote; a product left out has none. Money in cents. Market prices are not part of the " +
          "catalogue (GET /api/products): a feed's run changes no product.",
        querystring: marketQuotesQuerySchema,
        response: { 200: marketQuotesAnswerSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => quotesFor(serviceContext(app, request), request.query.ids),
  );

  app.get(
    "/prices/under-market",
    {
      config: { permission: "canManageIntegrations", scope: "prices:write" },
      schema: {
        tags,
        security,
        summary: "Active, ungraded products priced under their latest market price, the most money at stake first",
        description:
          "Managers and super_admin, and API tokens with the `prices:write` scope. `under_by` is market minus price per unit; " +
          "`at_stake` the gap times the stock (at least one), what the list is sorted by; `total` and `total_at_stake` cover " +
          "every such product. Money in cents of the shop's currency.",
        querystring: underMarketQuerySchema,
        response: { 200: underMarketAnswerSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => pricedUnderMarket(serviceContext(app, request), app.database, request.query),
  );
}
