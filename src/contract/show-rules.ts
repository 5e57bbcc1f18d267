// Shows: limits, messages, event types and who sees what (no zod: the client's streamer screen uses them).
import type { Role } from "./permissions.js";

export const SHOW_NAME_MAX = 100;

export const SHOW_MESSAGES = {
  notFound: "Show not found",
  alreadyRunning: "You are already running a show",
  alreadyEnded: "This show has already ended",
  notYours: "You can only tag your own show",
} as const;

/** Managers (and super administrators) see and end every show; others see and end their own. */
export function seesAllShows(role: Role): boolean {
  return role === "manager" || role === "super_admin";
}

export const SHOW_EVENT_TYPES = ["show_started", "show_ended"] as const;
export type ShowEventType = (typeof SHOW_EVENT_TYPES)[number];

/** The CSV of a show's summary (reconciling with the marketplace's orders); revenue as an amount (12.50), blank when unknown. */
export const SHOW_CSV_COLUMNS = ["product", "barcode", "sold", "added", "net", "revenue"] as const;
