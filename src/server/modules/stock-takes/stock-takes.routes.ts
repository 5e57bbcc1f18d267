import type { FastifyReply } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import { salesQuerySchema } from "../../../contract/reports.js";
import {
  approveStockTakeBodySchema,
  createLocationBodySchema,
  dropUnknownAnswerSchema,
  dropUnknownBodySchema,
  keepMisplacedBodySchema,
  linkUnknownBodySchema,
  locationSchema,
  locationsFromProductsAnswerSchema,
  moveMisplacedBodySchema,
  reviewLineAnswerSchema,
  scansAnswerSchema,
  scansBodySchema,
  shrinkageAnswerSchema,
  startStockTakeBodySchema,
  stockTakeAnswerSchema,
  stockTakeReviewSchema,
  stockTakeSchema,
  stockTakesQuerySchema,
} from "../../../contract/stock-takes.js";
import { describedError, errorAnswers, SESSION_OR_TOKEN } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { stockTakeCsv, stockTakeCsvFileName } from "./stock-takes.csv.js";
import {
  approveStockTake,
  cancelStockTake,
  createLocation,
  dropUnknown,
  finishCounting,
  getLocations,
  getStockTake,
  keepMisplaced,
  linkUnknown,
  listSessions,
  locationsFromProducts,
  moveMisplaced,
  recordScans,
  reviewStockTake,
  shrinkageReport,
  startStockTake,
} from "./stock-takes.service.js";

const tags = ["stock-takes"];
const security = SESSION_OR_TOKEN;
/** Inventory staff, managers and super_admin count; a token needs stock_takes:write. */
const count = { permission: "canManageProducts", scope: "stock_takes:write" } as const;
/** Managers and super_admin approve; a token with stock_takes:write while its maker is one. */
const approve = { permission: "canManageIntegrations", scope: "stock_takes:write" } as const;

const WHO =
  "Inventory users, managers and super_admin start, count, review and cancel (streamers: 403); only managers and " +
  "super_admin approve. A token (a handheld scanner app) needs `stock_takes:write`, which works within its maker's role.";
const EXPECTED =
  "Each product's expected quantity is its stock when it was first counted in the session, moved by every stock " +
  "change to it after that (taps, orders, imports, edits: anything in the quantity audit), so the difference is " +
  "what is really missing or extra while the shop keeps selling.";
/** What the review actions share: when, who, and who hears them. */
const REVIEW_ACTION =
  "Only while the session is counting or in review (409 otherwise, and 409 when the line is not what the action " +
  "settles). Every device counting the session hears it live (`stock_take_update`, type `stock_take_reviewed`).";
const conflictAnswer = describedError(409, z.object({ error: z.string(), product_ids: z.array(z.number().int()).optional() }));

/** Stock takes (issue 41): locations, count sessions, scans, review and approval (src/contract/stock-takes.ts). */
export async function stockTakesRoutes(app: ZodApp): Promise<void> {
  app.get(
    "/locations",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "The locations the shop keeps, by name",
        description: WHO,
        response: { 200: z.array(locationSchema), ...errorAnswers(401, 403, 429, 503) },
      },
    },
    async (request) => getLocations(serviceContext(app, request)),
  );

  app.post(
    "/locations",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Add a location; 409 when one of that name (any case) exists",
        description: `A product is in a location when its free-text \`location\` is the location's name (trimmed, any case). ${WHO}`,
        body: createLocationBodySchema,
        response: { 201: locationSchema, ...errorAnswers(400, 401, 403, 409, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await createLocation(serviceContext(app, request), request.body.name)),
  );

  app.post(
    "/locations/from-products",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Turn the products' distinct location texts into locations (the products keep their text)",
        description: WHO,
        response: { 200: locationsFromProductsAnswerSchema, ...errorAnswers(401, 403, 429, 503) },
      },
    },
    async (request) => locationsFromProducts(serviceContext(app, request)),
  );

  app.post(
    "/stock-takes",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Start a stock take of some locations or the whole shop",
        description: `${EXPECTED} ${WHO}`,
        body: startStockTakeBodySchema,
        response: { 201: stockTakeAnswerSchema, ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request, reply) => reply.code(201).send({ stock_take: await startStockTake(serviceContext(app, request), request.body) }),
  );

  app.get(
    "/stock-takes",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Stock takes, newest first",
        description: WHO,
        querystring: stockTakesQuerySchema,
        response: { 200: z.array(stockTakeSchema), ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => listSessions(serviceContext(app, request), request.query),
  );

  app.get(
    "/stock-takes/:id",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "One stock take",
        description: WHO,
        params: idParamsSchema,
        response: { 200: stockTakeAnswerSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => ({ stock_take: await getStockTake(serviceContext(app, request), request.params.id) }),
  );

  app.post(
    "/stock-takes/:id/scans",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Record one scan or many, in order; each client_scan_id counts once",
        description:
          'Each scan counts `quantity` (1 by default; a typed stack "x 24" sends 24) of the product its barcode names, ' +
          "where `location_id` says it was found. Answers per scan: `found`, `new_to_location` (its product's location " +
          "is another), `unknown` (no product has the barcode: recorded for the review) or `already_counted` (`count`: " +
          "counted before this scan; this one is added). A `client_scan_id` the session has answers its first answer " +
          "again with `replayed: true` and counts nothing, so an offline queue may send its backlog again. " +
          "`stock_take` is the session read after the scans (its `scans` count includes them). " +
          `409 once counting has finished. Every device counting the session hears the scans live (\`stock_take_update\`). ${WHO}`,
        params: idParamsSchema,
        body: scansBodySchema,
        response: { 200: scansAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 413, 429, 503) },
      },
    },
    async (request) => recordScans(serviceContext(app, request), request.params.id, request.body),
  );

  app.post(
    "/stock-takes/:id/finish",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Finish counting: no more scans; the session waits for review and approval",
        description: WHO,
        params: idParamsSchema,
        response: { 200: stockTakeAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ stock_take: await finishCounting(serviceContext(app, request), request.params.id) }),
  );

  app.get(
    "/stock-takes/:id/review",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "The differences before anything changes: per product and per location, at cost and at price",
        description:
          `${EXPECTED} Lines: \`counted\`, \`missing\` (expected in the session's locations, never scanned), ` +
          "`misplaced` (scanned in another location than its own, not yet moved or counted there: " +
          "POST .../misplaced/move and .../misplaced/keep; once settled the line is `counted` with `placement` " +
          "`moved` or `kept`) and `unknown` (a barcode no product has; `catalogue_product` when a product has it " +
          "now: POST .../unknown/link; scans dropped with POST .../unknown/drop are left out). " +
          `Values are cents. An approved session shows what its approval recorded. ${WHO}`,
        params: idParamsSchema,
        response: { 200: stockTakeReviewSchema, ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => reviewStockTake(serviceContext(app, request), request.params.id),
  );

  app.post(
    "/stock-takes/:id/approve",
    {
      config: approve,
      schema: {
        tags,
        security,
        summary: "Approve the differences (of `product_ids`, or all: `{}`): they go through the stock path as audited changes",
        description:
          "Each difference is a quantity change like any tap: a quantity audit entry with the reason `Stock take #N` " +
          "and the session's id, its webhooks and live events. It runs in short transactions of a few hundred products " +
          "(the session is `approving` meanwhile; taps are served between them) and answers the review when all are " +
          "done. The approval holds a lease on the session, renewed by each batch and kept in the database, so any " +
          "server process answers alike: sent twice at once it applies once (the second: 409 `This stock take is being " +
          "approved`, also while the first is still running). An approval cut off by a crash or a restart leaves the " +
          "session `approving` until its lease expires (30 seconds without a batch); approving it again then takes " +
          "the lease over and resumes it from its pending lines (nothing is applied twice). 409 with `product_ids` " +
          "when a product cannot take its change (disabled, or its stock would go below 0), checked before anything " +
          "changes: approve the others. A product refused while the batches run (its stock changed since) is left " +
          `unapplied and listed in \`refused_product_ids\`; the others are applied. ${WHO}`,
        params: idParamsSchema,
        body: approveStockTakeBodySchema,
        response: { 200: stockTakeReviewSchema, ...errorAnswers(400, 401, 403, 404, 429, 503), 409: conflictAnswer },
      },
    },
    async (request) => approveStockTake(serviceContext(app, request), app.database, request.params.id, request.body),
  );

  app.post(
    "/stock-takes/:id/misplaced/move",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Move a product found in another location there: its location becomes that location's name",
        description:
          "For a `misplaced` review line: `location` is one of its `found_in` names (any case; 409 when it was not " +
          "scanned there). The product's `location` changes through the products' one edit path, as an edit in " +
          "PUT /api/products/{id} does: a product audit entry, live events, webhooks, its version and the " +
          "catalogue's revision moved. The line is then a `counted` line (`placement: moved`); answers it. " +
          `${REVIEW_ACTION} ${WHO}`,
        params: idParamsSchema,
        body: moveMisplacedBodySchema,
        response: { 200: reviewLineAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ line: await moveMisplaced(serviceContext(app, request), request.params.id, request.body) }),
  );

  app.post(
    "/stock-takes/:id/misplaced/keep",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Count a product found in another location where it was found; it keeps its location",
        description:
          "For a `misplaced` review line: nothing changes in the product; the line is then a `counted` line " +
          `(\`placement: kept\`); answers it. ${REVIEW_ACTION} ${WHO}`,
        params: idParamsSchema,
        body: keepMisplacedBodySchema,
        response: { 200: reviewLineAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ line: await keepMisplaced(serviceContext(app, request), request.params.id, request.body) }),
  );

  app.post(
    "/stock-takes/:id/unknown/link",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Link an unknown barcode's scans to the product that has that barcode now",
        description:
          "After the product was created (from the review's Add product form with the barcode filled in, or " +
          "elsewhere): the session's unknown scans of `barcode` (not dropped) become the product's, and its line " +
          "gets their count with its expected quantity taken now, as at a first scan (every later stock change " +
          "moves it). The product must be the one a scan of `barcode` finds (the barcode, or another form of its " +
          "GTIN): 409 otherwise, 404 when there is no such product, 409 when the session has no unknown scans of " +
          "it. A product without a location is counted where it was found (`placement: kept`). Answers its line. " +
          `${REVIEW_ACTION} ${WHO}`,
        params: idParamsSchema,
        body: linkUnknownBodySchema,
        response: { 200: reviewLineAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ line: await linkUnknown(serviceContext(app, request), request.params.id, request.body) }),
  );

  app.post(
    "/stock-takes/:id/unknown/drop",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Drop an unknown barcode's scans: kept for the record, left out of the review and the report",
        description:
          "The session's unknown scans of `barcode` are marked dropped (who and when): they still count in the " +
          "session's `scans`, but no longer in the review, its report or its running totals. A later scan of the " +
          "barcode is unknown again. 409 when the session has no unknown scans of it. Answers how many were " +
          `dropped. ${REVIEW_ACTION} ${WHO}`,
        params: idParamsSchema,
        body: dropUnknownBodySchema,
        response: { 200: dropUnknownAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => dropUnknown(serviceContext(app, request), request.params.id, request.body),
  );

  app.post(
    "/stock-takes/:id/cancel",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "Cancel a stock take: nothing changes; 409 when approved or cancelled already",
        description: WHO,
        params: idParamsSchema,
        response: { 200: stockTakeAnswerSchema, ...errorAnswers(400, 401, 403, 404, 409, 429, 503) },
      },
    },
    async (request) => ({ stock_take: await cancelStockTake(serviceContext(app, request), request.params.id) }),
  );

  app.get(
    "/stock-takes/:id/report.csv",
    {
      config: count,
      schema: {
        tags,
        security,
        summary: "A stock take's report as CSV: the review's lines with expected, counted, difference and their values",
        description:
          "Columns: product_id, barcode, name, location, found_in (where it was scanned, `; ` between), status " +
          "(counted, missing, misplaced, unknown), expected, counted, difference, value_at_cost, value_at_price (in " +
          "the shop's currency, a loss negative; empty without a cost or price), applied (the change its approval " +
          "made; empty when not applied). A finished session keeps its report: an approved one shows what its " +
          `approval recorded. UTF-8 with a byte-order mark, CRLF. ${WHO}`,
        params: idParamsSchema,
        produces: ["text/csv"],
        response: { 200: z.string().describe("text/csv; UTF-8 with a byte-order mark"), ...errorAnswers(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request, typedReply) => {
      const review = await reviewStockTake(serviceContext(app, request), request.params.id);
      const reply = typedReply as unknown as FastifyReply;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${stockTakeCsvFileName(review)}"`)
        .send(stockTakeCsv(review));
    },
  );

  app.get(
    "/reports/shrinkage",
    {
      config: { permission: "canViewAudit", scope: "reports:read" },
      schema: {
        tags: ["reports", ...tags],
        security,
        summary: "Shrinkage: the approved stock take differences per day, week or month of a range",
        description:
          "Sums the quantity changes stock take approvals made (quantity audit rows with a `stock_take_id`): units " +
          "(`difference`; `missing` and `extra` apart, both positive) and their value at each product's cost today, " +
          "in cents (0 without a cost). Only periods with approved changes are listed; weeks start on Monday. Days " +
          "are days in the server's TIMEZONE setting. Managers and super_admin, inventory users without money at cost " +
          "(null), and API tokens with the `reports:read` scope (seeing what their maker sees).",
        querystring: salesQuerySchema,
        response: { 200: shrinkageAnswerSchema, ...errorAnswers(400, 401, 403, 429, 503) },
      },
    },
    async (request) => shrinkageReport(serviceContext(app, request), request.query),
  );
}
