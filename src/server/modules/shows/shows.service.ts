import { SHOW_MESSAGES, type ShowEventType, seesAllShows } from "../../../contract/show-rules.js";
import type { Show, ShowListItem, ShowSummary } from "../../../contract/shows.js";
import { conflict, forbidden, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { requirePermission } from "../../permissions.js";
import { endShowRow, findRunningShow, findShow, insertShow, listShowRows, type ShowRow, showChanges } from "./shows.repo.js";
import { tallyShow } from "./shows.tally.js";

/** The largest id a PostgreSQL `integer` holds; larger ids cannot exist. */
const MAX_ID = 2_147_483_647;

/** The API shape of a show row (timestamps as ISO 8601 UTC). */
export function toShow(row: ShowRow): Show {
  return {
    id: row.id,
    name: row.name,
    started_by: row.startedBy,
    started_by_name: row.startedByName,
    started_at: row.startedAt.toISOString(),
    ended_at: row.endedAt ? row.endedAt.toISOString() : null,
    ended_by_name: row.endedByName,
  };
}

/** Raises `show_update` (after the change committed). */
function emitShowUpdate(ctx: ServiceContext, type: ShowEventType, show: Show): void {
  ctx.events.emit("show_update", { type, show, timestamp: new Date().toISOString(), userId: ctx.actor.id, username: ctx.actor.username });
}

async function summarise(ctx: ServiceContext, row: ShowRow): Promise<ShowSummary> {
  const changes = (await showChanges(ctx.db, [row.id])).get(row.id) ?? [];
  return { show: toShow(row), ...tallyShow(changes) };
}

/** A show the actor may see: their own, or any for a manager. */
async function visibleShow(ctx: ServiceContext, id: number): Promise<ShowRow> {
  const row = id > MAX_ID ? undefined : await findShow(ctx.db, id);
  if (!row) throw notFound(SHOW_MESSAGES.notFound);
  if (row.startedBy !== ctx.actor.id && !seesAllShows(ctx.actor.role)) throw forbidden();
  return row;
}

/** Starts a show for the actor (409 while they run one already). */
export async function startShow(ctx: ServiceContext, name: string): Promise<ShowSummary> {
  requirePermission(ctx, "canUpdateQuantity");
  const row = await insertShow(ctx.db, { name, userId: ctx.actor.id, userName: ctx.actor.username });
  if (!row) {
    const running = await findRunningShow(ctx.db, ctx.actor.id);
    throw conflict(running ? `${SHOW_MESSAGES.alreadyRunning}: ${running.name}` : SHOW_MESSAGES.alreadyRunning);
  }
  const show = toShow(row);
  emitShowUpdate(ctx, "show_started", show);
  return { show, lines: [], totals: { sold: 0, added: 0, net: 0, changes: 0, revenue: null } };
}

/** The actor's running show with its tally, or null. */
export async function currentShow(ctx: ServiceContext): Promise<ShowSummary | null> {
  requirePermission(ctx, "canUpdateQuantity");
  const row = await findRunningShow(ctx.db, ctx.actor.id);
  return row ? summarise(ctx, row) : null;
}

export async function getShowSummary(ctx: ServiceContext, id: number): Promise<ShowSummary> {
  requirePermission(ctx, "canUpdateQuantity");
  return summarise(ctx, await visibleShow(ctx, id));
}

/** Ends a show (its starter, or a manager); the summary is the show's final tally. */
export async function endShow(ctx: ServiceContext, id: number): Promise<ShowSummary> {
  requirePermission(ctx, "canUpdateQuantity");
  await visibleShow(ctx, id);
  const row = await endShowRow(ctx.db, id, ctx.actor.username);
  if (!row) throw conflict(SHOW_MESSAGES.alreadyEnded);
  const summary = await summarise(ctx, row);
  emitShowUpdate(ctx, "show_ended", summary.show);
  return summary;
}

/** Shows newest first with their totals: a manager's list holds every show, anyone else's their own. */
export async function listShows(ctx: ServiceContext, query: { limit: number; offset: number }): Promise<ShowListItem[]> {
  requirePermission(ctx, "canUpdateQuantity");
  const rows = await listShowRows(ctx.db, { ...query, userId: seesAllShows(ctx.actor.role) ? undefined : ctx.actor.id });
  const changes = await showChanges(
    ctx.db,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({ ...toShow(row), totals: tallyShow(changes.get(row.id) ?? []).totals }));
}
