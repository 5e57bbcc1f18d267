import type { SwaggerTransform } from "@fastify/swagger";
import type { FastifySchema } from "fastify";
import { jsonSchemaTransform } from "fastify-type-provider-zod";
import type { z } from "zod";
import { errorBodySchema } from "../contract/errors.js";

/** OpenAPI `security` of routes a signed-in session may call, and only a session. */
export const SESSION_ONLY: Array<Record<string, string[]>> = [{ session: [] }];
/** OpenAPI `security` of routes an API token (with the route's scope) may call too. */
export const SESSION_OR_TOKEN: Array<Record<string, string[]>> = [{ session: [] }, { bearer: [] }];

/** The error statuses every route may answer, as the OpenAPI document describes them. */
const ERROR_DESCRIPTIONS = {
  400: "Malformed or invalid input: `{error}`, with `details: [{path, message}]` for validation errors",
  401: "Not signed in, the session ended, or an unknown or revoked API token",
  403: "Signed in but not allowed, an API token without the route's scope (or a cross-site request)",
  404: "Unknown id or barcode",
  409: "Conflict with the current state",
  413: "Request body too large",
  422: "The Idempotency-Key was already used for a different request; nothing changed",
  429: "Too many attempts (or requests with one API token); see Retry-After",
  502: "A source the server fetches from (a price feed's URL) could not be reached or answered with an error",
  503: "Database unavailable; try again shortly",
} as const;
export type ErrorStatus = keyof typeof ERROR_DESCRIPTIONS;

/**
 * The `{error}` body, letting through the extra fields some answers carry (`success: false` on
 * sign-in, the current product on a version conflict): answers are serialised through these schemas.
 */
const errorAnswer = errorBodySchema.loose();

/** Response schemas for the error answers a route gives: `response: { 200: x, ...errorAnswers(401, 503) }`. */
export function errorAnswers<S extends ErrorStatus>(...statuses: S[]): Record<S, typeof errorAnswer> {
  const answers = {} as Record<S, typeof errorAnswer>;
  for (const status of statuses) answers[status] = errorAnswer.describe(ERROR_DESCRIPTIONS[status]);
  return answers;
}

/** An error answer with its own schema (a conflict's extra fields), described as the status is. */
export function describedError<T extends z.ZodType>(status: ErrorStatus, schema: T): T {
  return schema.describe(ERROR_DESCRIPTIONS[status]);
}

/**
 * Every operation's `operationId` (resource and verb), by "METHOD /path" as the document writes
 * it: the names client generators give their functions, so they are chosen here once rather than
 * derived from paths (`/api/audit/product/{id}` and `/api/products/{id}` would both become
 * something about products). A route missing here gets a name derived from its method and path
 * (operationIdOf) and a test asks for an entry.
 */
export const OPERATION_IDS: Readonly<Record<string, string>> = {
  "GET /api/health": "getHealth",
  "POST /api/auth/login": "login",
  "POST /api/auth/logout": "logout",
  "GET /api/auth/me": "getCurrentUser",
  "GET /api/auth/verify-permissions": "getPermissions",
  "GET /api/auth/socket-token": "createSocketToken",
  "GET /api/auth/users": "listUsers",
  "POST /api/auth/users": "createUser",
  "PUT /api/auth/users/{id}/status": "updateUserStatus",
  "PUT /api/auth/users/{id}/password": "updateUserPassword",
  "GET /api/products": "listProducts",
  "POST /api/products": "createProduct",
  "GET /api/products/barcode/{barcode}": "getProductByBarcode",
  "PUT /api/products/{id}": "updateProduct",
  "PUT /api/products/{id}/quantity": "updateProductQuantity",
  "POST /api/products/shop-code": "createShopCode",
  "PUT /api/products/{id}/status": "updateProductStatus",
  "GET /api/settings": "getSettings",
  "POST /api/products/{id}/photos": "addProductPhoto",
  "PUT /api/products/{id}/photos": "reorderProductPhotos",
  "DELETE /api/products/{id}/photos/{photo}": "deleteProductPhoto",
  "GET /api/media/{name}": "getMediaFile",
  "POST /api/products/import": "importProducts",
  "POST /api/products/import/jobs": "createImportJob",
  "PUT /api/products/import/jobs/{id}/parts/{part}": "putImportJobPart",
  "POST /api/products/import/jobs/{id}/commit": "commitImportJob",
  "GET /api/products/import/jobs/{id}": "getImportJob",
  "GET /api/imports": "listImports",
  "POST /api/imports/{id}/undo": "undoImport",
  "GET /api/audit/products": "listProductAudit",
  "GET /api/audit/product/{id}": "listProductAuditOfProduct",
  "GET /api/audit/quantity": "listQuantityAudit",
  "GET /api/audit/quantity/{id}": "listQuantityAuditOfProduct",
  "GET /api/audit/users": "listAuditUsers",
  "POST /api/shows": "startShow",
  "GET /api/shows": "listShows",
  "GET /api/shows/current": "getCurrentShow",
  "GET /api/shows/{id}": "getShow",
  "POST /api/shows/{id}/end": "endShow",
  "GET /api/shows/{id}/csv": "getShowCsv",
  "POST /api/tokens": "createToken",
  "GET /api/tokens": "listTokens",
  "DELETE /api/tokens/{id}": "revokeToken",
  "POST /api/orders": "createOrder",
  "GET /api/orders": "listOrders",
  "GET /api/orders/{id}": "getOrder",
  "POST /api/orders/{id}/cancel": "cancelOrder",
  "GET /api/reports/sales": "getSalesReport",
  "GET /api/reports/top-sellers": "getTopSellersReport",
  "GET /api/reports/stock-value": "getStockValueReport",
  "GET /api/reports/slow-movers": "getSlowMoversReport",
  "GET /api/reports/reorder": "getReorderReport",
  "GET /api/reports/shows": "getShowsReport",
  "GET /api/reports/buys": "getBuysReport",
  "GET /api/reports/bought-in-margin": "getBoughtInMarginReport",
  "GET /api/reports/credit": "getCreditReport",
  "POST /api/webhooks": "createWebhook",
  "GET /api/webhooks": "listWebhooks",
  "PUT /api/webhooks/{id}": "updateWebhook",
  "DELETE /api/webhooks/{id}": "deleteWebhook",
  "POST /api/webhooks/{id}/test": "testWebhook",
  "GET /api/webhooks/{id}/deliveries": "listWebhookDeliveries",
  "POST /api/webhooks/{id}/deliveries/{delivery}/retry": "retryWebhookDelivery",
  "GET /api/prices/feeds": "listPriceFeeds",
  "POST /api/prices/feeds": "createPriceFeed",
  "POST /api/prices/feeds/{id}/run": "runPriceFeed",
  "GET /api/prices/feeds/{id}/unmatched": "listUnmatchedProducts",
  "GET /api/prices/feeds/{id}/cards": "searchPriceFeedCards",
  "GET /api/prices/runs/{id}": "getPriceFeedRun",
  "GET /api/prices/proposals": "listPriceProposals",
  "POST /api/prices/proposals/accept": "acceptPriceProposals",
  "GET /api/prices/rules": "getPricingRules",
  "PUT /api/prices/rules": "updatePricingRules",
  "GET /api/products/{id}/market-prices": "getProductMarketPrices",
  "PUT /api/products/{id}/market": "updateProductMarket",
  "GET /api/prices/market": "listMarketQuotes",
  "GET /api/prices/under-market": "listProductsUnderMarket",
  "GET /api/locations": "listLocations",
  "POST /api/locations": "createLocation",
  "POST /api/locations/from-products": "createLocationsFromProducts",
  "POST /api/stock-takes": "startStockTake",
  "GET /api/stock-takes": "listStockTakes",
  "GET /api/stock-takes/{id}": "getStockTake",
  "POST /api/stock-takes/{id}/scans": "recordStockTakeScans",
  "POST /api/stock-takes/{id}/finish": "finishStockTakeCounting",
  "GET /api/stock-takes/{id}/review": "reviewStockTake",
  "POST /api/stock-takes/{id}/misplaced/move": "moveMisplacedStockTakeProduct",
  "POST /api/stock-takes/{id}/misplaced/keep": "keepMisplacedStockTakeProduct",
  "POST /api/stock-takes/{id}/unknown/link": "linkStockTakeUnknownBarcode",
  "POST /api/stock-takes/{id}/unknown/drop": "dropStockTakeUnknownBarcode",
  "POST /api/stock-takes/{id}/approve": "approveStockTake",
  "POST /api/stock-takes/{id}/cancel": "cancelStockTake",
  "GET /api/stock-takes/{id}/report.csv": "getStockTakeReportCsv",
  "GET /api/reports/shrinkage": "getShrinkageReport",
  "GET /api/customers": "listCustomers",
  "POST /api/customers": "createCustomer",
  "GET /api/customers/{id}": "getCustomer",
  "PUT /api/customers/{id}": "updateCustomer",
  "GET /api/customers/{id}/export": "exportCustomer",
  "POST /api/customers/{id}/erase": "eraseCustomer",
  "GET /api/customers/{id}/credit": "getCustomerCredit",
  "POST /api/customers/{id}/credit": "adjustCustomerCredit",
  "POST /api/trade-ins": "createTradeIn",
  "GET /api/trade-ins": "listTradeIns",
  "GET /api/trade-ins/{id}": "getTradeIn",
  "PUT /api/trade-ins/{id}": "updateTradeIn",
  "POST /api/trade-ins/{id}/accept": "acceptTradeIn",
  "POST /api/trade-ins/{id}/void": "voidTradeIn",
  "POST /api/trade-ins/{id}/reverse": "reverseTradeIn",
  "POST /api/trade-ins/{id}/approve": "approveTradeIn",
  "GET /api/counter/feed-cards": "searchCounterFeedCards",
  "POST /api/counter/products-from-feed": "createProductFromFeed",
  "GET /api/buy-settings": "getBuySettings",
  "PUT /api/buy-settings": "updateBuySettings",
  "PUT /api/buy-settings/limits/{id}": "setProductBuyLimit",
  "GET /api/buylist": "getBuylist",
  "POST /api/buylist/submissions": "submitBuylist",
};

/** A route's path as the document writes it: Fastify's `:id` parameters as `{id}`. */
export function documentPath(url: string): string {
  return url.replace(/:(\w+)/g, "{$1}");
}

/** A route's `operationId`: its OPERATION_IDS entry, else its method and path's words in camelCase (`postApiThingsId`). */
export function operationIdOf(method: string, path: string): string {
  const named = OPERATION_IDS[`${method.toUpperCase()} ${path}`];
  if (named) return named;
  const words = [method, ...path.split(/[^A-Za-z0-9]+/)].filter(Boolean).map((w) => w.toLowerCase());
  return words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join("");
}

/**
 * The swagger `transform` of every route: the zod schemas to JSON Schema (fastify-type-provider-zod),
 * then the route's operationId and, for the public routes (`config.public`: sign-in, sign-out,
 * health), `security: []`, so a generated client knows they need neither a session nor a token.
 */
export const openapiTransform: SwaggerTransform = (input) => {
  const { schema, url } = jsonSchemaTransform(input);
  const method = [input.route.method].flat()[0] ?? "GET";
  const path = documentPath(url);
  const publicRoute = (input.route.config as { public?: boolean } | undefined)?.public === true;
  return {
    schema: { ...schema, operationId: operationIdOf(method, path), ...(publicRoute ? { security: [] } : {}) } as FastifySchema,
    url,
  };
};
