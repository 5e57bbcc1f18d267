import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import {
  buyLimitBodySchema,
  buyLimitSchema,
  buySettingsAnswerSchema,
  buySettingsSchema,
  creditAdjustmentAnswerSchema,
  creditAdjustmentBodySchema,
  creditLedgerSchema,
  customerBodySchema,
  customerDetailSchema,
  customerExportSchema,
  customerSchema,
  customersQuerySchema,
  tradeInAnswerSchema,
  tradeInBodySchema,
  tradeInReverseBodySchema,
  tradeInSchema,
  tradeInsQuerySchema,
} from "../../../contract/counter.js";
import { errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { buylistRoutes } from "./buylist.routes.js";
import {
  adjustCredit,
  createCustomer,
  eraseCustomer,
  exportCustomer,
  getCredit,
  getCustomer,
  listCustomers,
  updateCustomer,
} from "./customers.service.js";
import { counterFeedCardRoutes } from "./feed-cards.routes.js";
import {
  acceptTradeIn,
  approveTradeIn,
  createTradeIn,
  getBuySettings,
  getTradeIn,
  listTradeIns,
  putBuyLimit,
  putBuySettings,
  reverseTradeIn,
  updateTradeIn,
  voidTradeIn,
} from "./trade-ins.service.js";

const security = SESSION_OR_TOKEN;
/** Inventory staff, managers and super_admin (never streamers); a token needs trade_ins:write. */
const counter = { permission: "canManageProducts", scope: "trade_ins:write" } as const;
/** Managers and super_admin: credit adjustments, buy settings and limits. */
const managers = { permission: "canManageIntegrations", scope: "trade_ins:write" } as const;

const WHO_COUNTER =
  "Inventory users, managers and super_admin (streamers: 403); a token with `trade_ins:write` while its maker may. " +
  "Customer data is never sent to sockets or webhooks.";
const WHO_MANAGERS = "Managers and super_admin (inventory and streamers: 403); a token with `trade_ins:write` while its maker is one.";

/** The counter (issue 40): customers, store credit, trade-ins and the shop's buy settings (src/contract/counter.ts). */
export async function counterRoutes(app: ZodApp): Promise<void> {
  const customers = ["customers"];
  const tradeIns = ["trade-ins"];

  app.get(
    "/customers",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "Customers by name, a page at a time; `q` searches name, email and phone",
        description: `Erased customers come last (their name reads empty). ${WHO_COUNTER}`,
        querystring: customersQuerySchema,
        response: { 200: z.array(customerSchema), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => listCustomers(serviceContext(app, request), request.query),
  );

  app.post(
    "/customers",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "Create a customer (name; email, phone and notes optional); audited",
        description: WHO_COUNTER,
        body: customerBodySchema,
        response: { 201: z.object({ customer: customerSchema }), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send({ customer: await createCustomer(serviceContext(app, request), request.body) }),
  );

  app.get(
    "/customers/:id",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "A customer's page: the customer with their credit balance, trade-ins, orders and credit ledger",
        description: WHO_COUNTER,
        params: idParamsSchema,
        response: { 200: customerDetailSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => getCustomer(serviceContext(app, request), request.params.id),
  );

  app.put(
    "/customers/:id",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "Edit a customer (every field: a field left out is cleared); audited; 409 once erased",
        description: WHO_COUNTER,
        params: idParamsSchema,
        body: customerBodySchema,
        response: { 200: z.object({ customer: customerSchema }), ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ customer: await updateCustomer(serviceContext(app, request), request.params.id, request.body) }),
  );

  app.get(
    "/customers/:id/export",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "Everything kept about a customer as JSON (a request for their data); the export is audited",
        description: WHO_COUNTER,
        params: idParamsSchema,
        response: { 200: customerExportSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => exportCustomer(serviceContext(app, request), request.params.id),
  );

  app.post(
    "/customers/:id/erase",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary:
          "Erase a customer: name, email, phone, notes and their trade-ins' notes removed; credit entries, trade-ins and orders kept with their sums",
        description: `Audited with who. 409 when erased already. ${WHO_COUNTER}`,
        params: idParamsSchema,
        response: { 200: z.object({ customer: customerSchema }), ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ customer: await eraseCustomer(serviceContext(app, request), request.params.id) }),
  );

  app.get(
    "/customers/:id/credit",
    {
      config: counter,
      schema: {
        tags: customers,
        security,
        summary: "A customer's store credit: the balance and the ledger, newest first (each entry with who, why and the balance after)",
        description: WHO_COUNTER,
        params: idParamsSchema,
        response: { 200: creditLedgerSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => getCredit(serviceContext(app, request), request.params.id),
  );

  app.post(
    "/customers/:id/credit",
    {
      config: managers,
      schema: {
        tags: customers,
        security,
        summary: "Adjust a customer's store credit (cents, + or -) with a reason: a new ledger entry; 409 when it would go below 0",
        description: `The ledger is append-only: a mistake is put right by another entry. ${WHO_MANAGERS}`,
        params: idParamsSchema,
        body: creditAdjustmentBodySchema,
        response: { 201: creditAdjustmentAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await adjustCredit(serviceContext(app, request), request.params.id, request.body)),
  );

  const OFFERS =
    "Each line's offer per unit is the latest market price (the feed's price for the line's condition when it has one) x the " +
    "shop's cash % or credit % (the first matching vendor/set override's, or the hotlist's when higher), unless " +
    "`offer_cash_cents`/`offer_credit_cents` are sent (set by hand); a darklisted product's line is struck; a line is capped " +
    "at the units the shop still wants (buy limit - on hand). Cents throughout.";

  app.post(
    "/trade-ins",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Start a trade-in as a draft (customer optional)",
        description: `${OFFERS} ${WHO_COUNTER}`,
        body: tradeInBodySchema,
        response: { 201: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send({ trade_in: await createTradeIn(serviceContext(app, request), request.body) }),
  );

  app.get(
    "/trade-ins",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Trade-ins newest first, by status and customer",
        description: WHO_COUNTER,
        querystring: tradeInsQuerySchema,
        response: { 200: z.array(tradeInSchema), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => listTradeIns(serviceContext(app, request), request.query),
  );

  app.get(
    "/trade-ins/:id",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "One trade-in with its lines and totals",
        description: WHO_COUNTER,
        params: idParamsSchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await getTradeIn(serviceContext(app, request), request.params.id) }),
  );

  app.put(
    "/trade-ins/:id",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Save a draft: customer, lines (replaced), payout; 409 unless a draft",
        description: `${OFFERS} ${WHO_COUNTER}`,
        params: idParamsSchema,
        body: tradeInBodySchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await updateTradeIn(serviceContext(app, request), request.params.id, request.body) }),
  );

  app.post(
    "/trade-ins/:id/accept",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Accept a draft: every line into stock, the cost averaged, the credit entry, in one transaction",
        description:
          "Every line not struck is added to stock (quantity audit `Trade-in #N`, live `inventory_update` and webhooks as for " +
          "any stock change), the price paid per unit averaged into the product's cost, and the credit part written to the " +
          "customer's ledger; all or nothing: a line whose product is disabled, darklisted or over its buy limit refuses the " +
          `whole trade-in (409). A second accept of the same trade-in answers 409 and applies nothing. ${WHO_COUNTER}`,
        params: idParamsSchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await acceptTradeIn(serviceContext(app, request), request.params.id) }),
  );

  app.post(
    "/trade-ins/:id/approve",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Approve an online list: Pending becomes Approved (it stays a draft, adjusted and accepted when the cards arrive)",
        description:
          "Only a draft that came from the public buylist (`source` online) and is not approved yet; it is marked approved " +
          "with who and when (`approved_by`, `approved_at`). An online list shows Pending (a draft not approved), Approved " +
          "(a draft approved) and Complete (accepted). 409 for a trade-in made at the counter, one approved already, or one " +
          `accepted or void. ${WHO_COUNTER}`,
        params: idParamsSchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await approveTradeIn(serviceContext(app, request), request.params.id) }),
  );

  app.post(
    "/trade-ins/:id/void",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "Void a draft (409 once accepted or void)",
        description: WHO_COUNTER,
        params: idParamsSchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await voidTradeIn(serviceContext(app, request), request.params.id) }),
  );

  app.post(
    "/trade-ins/:id/reverse",
    {
      config: managers,
      schema: {
        tags: tradeIns,
        security,
        summary: "Reverse an accepted trade-in by new entries: its stock back out, its credit taken back, in one transaction",
        description:
          "Every line not struck is taken back out of stock (quantity audit `Trade-in #N reversed`), the credit part is taken " +
          "back by a negative entry in the customer's ledger with the reason, and the trade-in is marked reversed with who, " +
          "when and why; nothing is edited or deleted. 409 with nothing applied when the balance no longer covers the credit, " +
          "a product is disabled or no longer holds the units, or the trade-in is not accepted (a second reversal). " +
          WHO_MANAGERS,
        params: idParamsSchema,
        body: tradeInReverseBodySchema,
        response: { 200: tradeInAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ trade_in: await reverseTradeIn(serviceContext(app, request), request.params.id, request.body.reason) }),
  );

  app.get(
    "/buy-settings",
    {
      config: counter,
      schema: {
        tags: tradeIns,
        security,
        summary: "The shop's buy settings (cash and credit %, overrides, hotlist, darklist) and the products' buy limits",
        description: WHO_COUNTER,
        response: { 200: buySettingsAnswerSchema, ...errorAnswers(401, 403, 429, 503) },
      },
    },
    async (request) => getBuySettings(serviceContext(app, request)),
  );

  app.put(
    "/buy-settings",
    {
      config: managers,
      schema: {
        tags: tradeIns,
        security,
        summary: "Set the shop's buy settings (drafts saved afterwards take them; accepted trade-ins keep theirs)",
        description: WHO_MANAGERS,
        body: buySettingsSchema,
        response: { 200: buySettingsAnswerSchema, ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => putBuySettings(serviceContext(app, request), request.body),
  );

  app.put(
    "/buy-settings/limits/:id",
    {
      config: managers,
      schema: {
        tags: tradeIns,
        security,
        summary: "Set how many of a product the shop wants on hand (null: no limit)",
        description: WHO_MANAGERS,
        params: idParamsSchema,
        body: buyLimitBodySchema,
        response: { 200: buyLimitSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => putBuyLimit(serviceContext(app, request), request.params.id, request.body.buy_limit),
  );

  // The public buylist and its submissions (no sign-in).
  await buylistRoutes(app);
  // A card not yet in the catalogue, from a price feed's printing.
  await counterFeedCardRoutes(app);
}
