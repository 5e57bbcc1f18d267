import type { FastifyReply } from "fastify";
import { z } from "zod";
import { idParamsSchema } from "../../../contract/common.js";
import {
  currentShowSchema,
  showListItemSchema,
  showListQuerySchema,
  showSummarySchema,
  startShowBodySchema,
} from "../../../contract/shows.js";
import { errorAnswers } from "../../openapi.js";
import { serviceContext } from "../../plugins/auth.js";
import type { ZodApp } from "../../zod-app.js";
import { showCsv, showCsvFileName } from "./shows.csv.js";
import { currentShow, endShow, getShowSummary, listShows, startShow } from "./shows.service.js";

const tags = ["shows"];
const security = [{ session: [] }];
/** Anyone who can update quantity can run a show; managers see and end every show (checked in the service). A show is a person's: no API token. */
const config = { permission: "canUpdateQuantity", scope: null } as const;

const TALLY_RULES =
  "The tally counts the quantity changes tagged with the show (`show_id` on PUT /api/products/{id}/quantity): per " +
  "product, units sold and added and the net change, newest first. An undo (a change with the reason `Undo`) " +
  "cancels the latest taps it is the opposite of, so an undone tap counts in neither column; `undo_change` is the " +
  "change that undoes a line's latest tap not undone yet (send it with the reason `Undo` and the show's id).";

/** Shows: a stream's ledger (src/contract/shows.ts). */
export async function showsRoutes(app: ZodApp): Promise<void> {
  app.post(
    "/shows",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Start a show (one running show per user: 409 while one runs)",
        description:
          "Taps the streamer view makes while the show runs carry its id, so the quantity audit says which show sold " +
          "what. Live event `show_update` `{type: 'show_started', show}` goes to every signed-in screen.",
        body: startShowBodySchema,
        response: { 201: showSummarySchema, ...errorAnswers(400, 401, 403, 409, 413, 503) },
      },
    },
    async (request, reply) => reply.code(201).send(await startShow(serviceContext(app, request), request.body.name)),
  );

  app.get(
    "/shows/current",
    {
      config,
      schema: {
        tags,
        security,
        summary: "The show the signed-in user is running, with its tally, or null",
        description: TALLY_RULES,
        response: { 200: currentShowSchema, ...errorAnswers(401, 403, 503) },
      },
    },
    async (request) => ({ show: await currentShow(serviceContext(app, request)) }),
  );

  app.get(
    "/shows",
    {
      config,
      schema: {
        tags,
        security,
        summary: "Shows, newest first, with their totals: every show for managers, one's own for anyone else",
        querystring: showListQuerySchema,
        response: { 200: z.array(showListItemSchema), ...errorAnswers(400, 401, 403, 503) },
      },
    },
    async (request) => listShows(serviceContext(app, request), request.query),
  );

  app.get(
    "/shows/:id",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A show with its tally (its starter, or a manager)",
        description: TALLY_RULES,
        params: idParamsSchema,
        response: { 200: showSummarySchema, ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request) => getShowSummary(serviceContext(app, request), request.params.id),
  );

  app.post(
    "/shows/:id/end",
    {
      config,
      schema: {
        tags,
        security,
        summary: "End a show (its starter, or a manager): answers its summary; 409 when it had ended",
        description: `${TALLY_RULES} Live event \`show_update\` \`{type: 'show_ended', show}\` goes to every signed-in screen.`,
        params: idParamsSchema,
        response: { 200: showSummarySchema, ...errorAnswers(400, 401, 403, 404, 409, 503) },
      },
    },
    async (request) => endShow(serviceContext(app, request), request.params.id),
  );

  app.get(
    "/shows/:id/csv",
    {
      config,
      schema: {
        tags,
        security,
        summary: "A show's summary as CSV: product, barcode, sold, added, net (one line per product, by name)",
        params: idParamsSchema,
        produces: ["text/csv"],
        response: { 200: z.string().describe("text/csv; UTF-8 with a byte-order mark"), ...errorAnswers(400, 401, 403, 404, 503) },
      },
    },
    async (request, typedReply) => {
      const summary = await getShowSummary(serviceContext(app, request), request.params.id);
      const reply = typedReply as unknown as FastifyReply;
      return reply
        .type("text/csv; charset=utf-8")
        .header("content-disposition", `attachment; filename="${showCsvFileName(summary)}"`)
        .send(showCsv(summary));
    },
  );
}
