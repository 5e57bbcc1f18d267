import { counterFeedCardSchema, counterFeedCardsQuerySchema, productFromFeedBodySchema } from "../../../contract/counter.js";
import { productSchema } from "../../../contract/products.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { productFromFeed, searchFeedCards } from "./feed-cards.service.js";

const security = SESSION_OR_TOKEN;
/** Inventory staff, managers and super_admin (never streamers); a token needs trade_ins:write. */
const counter = { permission: "canManageProducts", scope: "trade_ins:write" } as const;
const WHO = "Inventory users, managers and super_admin (streamers: 403); a token with `trade_ins:write` while its maker may.";

/** A card not yet in the catalogue, added at the counter from a price feed's printing (issue 40). */
export async function counterFeedCardRoutes(app: ZodApp): Promise<void> {
  const tags = ["trade-ins"];

  app.get(
    "/counter/feed-cards",
    {
      config: counter,
      schema: {
        tags,
        security,
        summary: "Printings of each feed's latest finished run whose name holds `q` (at most 50), with the feed's market price",
        description: `Near Mint's (or the condition-less) row of each printing, with \`run_id\` and \`seq\` to add it by. ${WHO}`,
        querystring: counterFeedCardsQuerySchema,
        response: { 200: counterFeedCardSchema.array(), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => searchFeedCards(serviceContext(app, request), request.query.q),
  );

  app.post(
    "/counter/products-from-feed",
    {
      config: counter,
      schema: {
        tags,
        security,
        summary: "Add a card to the catalogue from a feed's printing, with its market ids and the feed's price (one transaction)",
        description:
          "Creates the product as `POST /api/products` does (audited as a creation; 409 when the barcode, or another form of " +
          "its GTIN, exists), with the printing's name, set and number, no stock; without `barcode` a shop code (SC-000123) " +
          "is made for it. Its market ids and finish are set, and the printing's prices recorded as the feed's for the run's " +
          "day, so its trade-in offer is market x percent at once. 404 when the printing is not in the feed's latest finished " +
          `run (search again). ${WHO}`,
        body: productFromFeedBodySchema,
        response: { 201: productSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await productFromFeed(serviceContext(app, request), request.body)),
  );
}
