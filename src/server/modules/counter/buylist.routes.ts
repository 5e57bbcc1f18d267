import { normalizeIP } from "@fastify/rate-limit";
import { z } from "zod";
import {
  BUYLIST_BODY_LIMIT_BYTES,
  BUYLIST_MESSAGES,
  BUYLIST_SUBMISSIONS_PER_WINDOW,
  BUYLIST_WINDOW_MS,
  buylistAnswerSchema,
  buylistQuerySchema,
  buylistReceiptSchema,
  buylistSubmissionSchema,
} from "../../../contract/buylist.js";
import { tooManyRequests } from "../../app-error.js";
import { errorAnswers } from "../../openapi.js";
import type { ZodApp } from "../../zod-app.js";
import { buylist, submitBuylist } from "./buylist.service.js";

const tags = ["buylist"];

/**
 * The public buylist (issue 40): no sign-in (`config.public`: the session hook lets it through and
 * the OpenAPI document says `security: []`). A submission's POST passes the origin check like any
 * other (a page of another site cannot post it from a visitor's browser).
 *
 * Submissions are limited per address (IPv6 by /64) with @fastify/rate-limit's route option, on the
 * database store the login throttle registers on this scope (auth.routes.ts, registered before
 * these routes): every server process counts the same submissions. The limit runs as a preHandler,
 * after the body is parsed and validated: a form sent back with a mistake costs nothing.
 */
export async function buylistRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/buylist",
    {
      config: { public: true },
      schema: {
        tags,
        summary: "What the shop is buying, at what price: a page of cards by name (public, no sign-in)",
        description:
          "Active cards with a buy limit above the stock on hand, not darklisted, with a market price: each with the offer per " +
          "unit in cash and in store credit for each condition the price feed prices (Near Mint first), and the most units the " +
          "shop takes in one submission. Never stock counts, buy limits or costs. `q` searches the name and the set.",
        querystring: buylistQuerySchema,
        response: { 200: buylistAnswerSchema, ...errorAnswers(400, 503) },
      },
    },
    async (request) => buylist(app.db, app.config, request.query),
  );

  app.post(
    "/buylist/submissions",
    {
      config: {
        public: true,
        rateLimit: {
          max: BUYLIST_SUBMISSIONS_PER_WINDOW,
          timeWindow: BUYLIST_WINDOW_MS,
          hook: "preHandler",
          keyGenerator: (request) => `buylist-submission:${normalizeIP(request.ip)}`,
          errorResponseBuilder: (_request, context) =>
            tooManyRequests(BUYLIST_MESSAGES.rateLimited, { "retry-after": String(Math.ceil(context.ttl / 1000)) }),
        },
      },
      bodyLimit: BUYLIST_BODY_LIMIT_BYTES,
      schema: {
        tags,
        summary: "A customer's list of cards to sell (public, no sign-in): staff receive it as a pending trade-in",
        description:
          `A draft trade-in marked online (the Counter shows it as received online) for the customer with this email, or a new ` +
          `one; staff adjust it and accept it when the cards arrive (pending is the draft, complete is accepted). At most ` +
          `${BUYLIST_SUBMISSIONS_PER_WINDOW} submissions an hour from one address (429 after), a body of at most ` +
          `${BUYLIST_BODY_LIMIT_BYTES / 1024} KB (413), 50 lines; a card the shop is not buying (darklisted, or wanted no more) ` +
          "or more units than it takes refuses the whole list (409). The `website` field is a honeypot: left empty by people.",
        body: buylistSubmissionSchema,
        response: { 201: z.object({ submission: buylistReceiptSchema }), ...errorAnswers(400, 403, 409, 413, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send({ submission: await submitBuylist(app.db, app.config, request.body, request.ip) }),
  );
}
