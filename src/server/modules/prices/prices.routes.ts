import { Readable } from "node:stream";
import fastifyMultipart from "@fastify/multipart";
import { idParamsSchema } from "../../../contract/common.js";
import {
  acceptProposalsAnswerSchema,
  acceptProposalsBodySchema,
  createFeedBodySchema,
  feedCardSchema,
  feedCardsQuerySchema,
  feedParamsSchema,
  feedRunSchema,
  marketIdsBodySchema,
  priceFeedSchema,
  productMarketAnswerSchema,
  proposalsAnswerSchema,
  proposalsQuerySchema,
  unmatchedAnswerSchema,
  unmatchedQuerySchema,
} from "../../../contract/prices.js";
import { pricingRulesSchema } from "../../../contract/pricing-rules.js";
import { badRequest } from "../../app-error.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { WebhookTargets } from "../webhooks/webhook-targets.js";
import type { FeedInput } from "./feeds/parse-feed.js";
import { fetchFeed } from "./price-fetch.js";
import {
  acceptProposals,
  createFeed,
  feedOf,
  getRules,
  getRun,
  listFeeds,
  listProposals,
  productMarket,
  runFeedNow,
  saveRules,
  searchFeedCards,
  unmatchedProducts,
  updateProductMarket,
} from "./prices.service.js";

const tags = ["prices"];
const security = SESSION_OR_TOKEN;
/** Managers and super_admin; a token with `prices:write`. */
const config = { permission: "canManageIntegrations", scope: "prices:write" } as const;
/** A feed file as large as a whole Scryfall bulk file: it streams, it is never held whole. */
export const FEED_MAX_BYTES = 1024 * 1024 * 1024;
const WHO = "Managers and super_admin, and API tokens with the `prices:write` scope.";
const TCGCSV_PARTS = "Send a TCGCSV feed as `products`, optionally `groups`, then `prices`";

/** Market price feeds, their runs, the repricing rules and the proposals they make (src/contract/prices.ts). */
export async function pricesRoutes(parent: ZodApp): Promise<void> {
  const deps = () => ({ database: parent.database, runner: parent.importRunner });
  const targets = new WebhookTargets(parent.config.WEBHOOK_ALLOWED_HOSTS);

  parent.get(
    "/prices/feeds",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The shop's price feeds, each with its last run",
        description: WHO,
        response: { 200: priceFeedSchema.array(), ...errorAnswers(401, 403) },
      },
    },
    async (request) => listFeeds(serviceContext(parent, request)),
  );

  parent.post(
    "/prices/feeds",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Add a price feed (uploaded, or fetched daily from its URL)",
        description: `${WHO} Formats: \`tcgcsv\` (TCGCSV products and prices JSON of a group), \`scryfall\` (a bulk cards file), \`pokemontcg\` (pokemontcg.io v2 cards), \`csv\`. 409 when the name is taken.`,
        body: createFeedBodySchema,
        response: { 201: priceFeedSchema, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(201).send(await createFeed(serviceContext(parent, request), request.body)),
  );

  await parent.register(async (app: ZodApp) => {
    await app.register(fastifyMultipart, { limits: { fileSize: FEED_MAX_BYTES, files: 3, fields: 0, parts: 3, headerPairs: 100 } });
    app.post(
      "/prices/feeds/:id/run",
      {
        config,
        schema: {
          tags,
          security,
          summary: "Read a feed now: the file sent (multipart), or else the feed's URL; then match, record prices and run the rules",
          description:
            `${WHO} multipart/form-data with one \`file\` field (a TCGCSV feed: \`products\`, optionally \`groups\`, the ` +
            "category's `/{categoryId}/groups` answer that gives its cards their set, then `prices`); with no body the server " +
            "fetches the feed's URL (a TCGCSV feed's group from `/{categoryId}/groups` beside its prices address). The file " +
            "streams as it is read. Products match by their ids first (TCGplayer, " +
            "Scryfall, pokemontcg.io, barcode, another source's id), then by set + collector number, always in their finish. " +
            "Answers when done with the run: `failed` (with `error`) changed nothing. With auto-apply on (the rules' " +
            "`auto_apply_under_percent`), the proposals moving less than it are then applied as one import by the caller " +
            "(GET /api/imports lists it; undone like any import); the others wait for review.",
          consumes: ["multipart/form-data"],
          params: feedParamsSchema,
          response: { 200: feedRunSchema, ...errorAnswers(400, 401, 403, 404, 413, 502) },
        },
      },
      async (request) => {
        const ctx = serviceContext(app, request);
        const feed = await feedOf(ctx, request.params.id);
        let input: FeedInput;
        if (request.isMultipart()) {
          const parts = request.files();
          const first = await parts.next();
          if (first.done) throw badRequest("Send the feed as a `file` field");
          if (feed.format === "tcgcsv") {
            if (first.value.fieldname !== "products") throw badRequest(TCGCSV_PARTS);
            const products = await first.value.toBuffer();
            let next = await parts.next();
            // The category's groups, optional: the products' group is found in it, so the cards have their set.
            let groups: Buffer | undefined;
            if (!next.done && next.value.fieldname === "groups") {
              groups = await next.value.toBuffer();
              next = await parts.next();
            }
            if (next.done || next.value.fieldname !== "prices") throw badRequest(TCGCSV_PARTS);
            input = {
              products: Readable.from([products]),
              prices: next.value.file,
              ...(groups ? { groups: Readable.from([groups]) } : {}),
            };
          } else {
            if (first.value.fieldname !== "file") throw badRequest("Send the feed as a `file` field");
            input = first.value.file;
          }
        } else {
          if (!feed.url) throw badRequest("This feed has no URL: upload its file");
          input = await fetchFeed(targets, { ...feed, url: feed.url });
        }
        const outcome = await runFeedNow(ctx, deps(), feed, request.isMultipart() ? "upload" : "request", input);
        return getRun(ctx, outcome.id);
      },
    );
  });

  parent.get(
    "/prices/feeds/:id/unmatched",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Products the feed's last run did not price (found by none of their ids, nor by set + number in their finish)",
        description: `${WHO} Link one by searching the feed's cards (GET /api/prices/feeds/{id}/cards?q=) and setting the product's ids (PUT /api/products/{id}/market).`,
        params: feedParamsSchema,
        querystring: unmatchedQuerySchema,
        response: { 200: unmatchedAnswerSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => unmatchedProducts(serviceContext(parent, request), request.params.id, request.query),
  );

  parent.get(
    "/prices/feeds/:id/cards",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The printings of the feed's last run whose name holds `q` (at most 50), with their ids",
        description: WHO,
        params: feedParamsSchema,
        querystring: feedCardsQuerySchema,
        response: { 200: feedCardSchema.array(), ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => searchFeedCards(serviceContext(parent, request), request.params.id, request.query.q),
  );

  parent.get(
    "/prices/runs/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "One run of a feed",
        description: WHO,
        params: idParamsSchema,
        response: { 200: feedRunSchema, ...errorAnswers(401, 403, 404) },
      },
    },
    async (request) => getRun(serviceContext(parent, request), request.params.id),
  );

  parent.get(
    "/prices/proposals",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Proposed prices waiting for review, the most money at stake first",
        description: `${WHO} \`at_stake\` is the move times the stock (at least one); \`big\` a move over the rules' big-move percent.`,
        querystring: proposalsQuerySchema,
        response: { 200: proposalsAnswerSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => listProposals(serviceContext(parent, request), request.query),
  );

  parent.post(
    "/prices/proposals/accept",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Accept proposals: their prices are written as one import (undone like any import)",
        description:
          `${WHO} Each row is based on the product as its proposal saw it: a price someone changed since is kept. ` +
          "The import writes in short batches behind taps; GET /api/products/import/jobs/{import_id} tells its progress.",
        body: acceptProposalsBodySchema,
        response: { 202: acceptProposalsAnswerSchema, ...errorAnswers(400, 401, 403, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await acceptProposals(serviceContext(parent, request), deps(), request.body)),
  );

  parent.get(
    "/prices/rules",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The repricing rules (the defaults until saved)",
        description: WHO,
        response: { 200: pricingRulesSchema, ...errorAnswers(401, 403) },
      },
    },
    async (request) => getRules(serviceContext(parent, request)),
  );

  parent.put(
    "/prices/rules",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Save the repricing rules; the proposals are made again with them",
        description: WHO,
        body: pricingRulesSchema,
        response: { 200: pricingRulesSchema, ...errorAnswers(400, 401, 403) },
      },
    },
    async (request) => saveRules(serviceContext(parent, request), deps(), request.body),
  );

  parent.get(
    "/products/:id/market-prices",
    {
      config: { scope: "products:read" },
      schema: {
        tags,
        security,
        summary: "A product's market prices: how feeds find it, its latest prices and their history (a year)",
        description: "Every signed-in user; API tokens with `products:read`. Money in cents of the shop's currency.",
        params: idParamsSchema,
        response: { 200: productMarketAnswerSchema, ...errorAnswers(401, 403, 404) },
      },
    },
    async (request) => productMarket(serviceContext(parent, request), request.params.id),
  );

  parent.put(
    "/products/:id/market",
    {
      config: { permission: "canManageProducts" },
      schema: {
        tags,
        security,
        summary: "Set how feeds find a product (its ids, its finish) or freeze its price; what is left out stays",
        description: "Users who can manage products; API tokens with `products:write`.",
        params: idParamsSchema,
        body: marketIdsBodySchema,
        response: { 200: productMarketAnswerSchema, ...errorAnswers(400, 401, 403, 404) },
      },
    },
    async (request) => updateProductMarket(serviceContext(parent, request), request.params.id, request.body),
  );
}
