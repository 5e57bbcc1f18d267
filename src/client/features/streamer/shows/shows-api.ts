import type { CurrentShow, ShowListItem, ShowSummary } from "../../../../contract/shows";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** Query keys of the shows. */
export const showKeys = {
  all: queryKeys.shows,
  current: [...queryKeys.shows, "current"] as const,
  list: [...queryKeys.shows, "list"] as const,
  one: (id: number) => [...queryKeys.shows, "one", id] as const,
};

/** GET /api/shows/current: the signed-in user's running show with its tally, or null. */
export async function getCurrentShow(signal?: AbortSignal): Promise<ShowSummary | null> {
  return (await apiFetch<CurrentShow>("/api/shows/current", { signal })).show;
}

/** POST /api/shows */
export function startShow(name: string): Promise<ShowSummary> {
  return apiFetch<ShowSummary>("/api/shows", { method: "POST", body: { name } });
}

/** POST /api/shows/{id}/end: the final summary. */
export function endShow(id: number): Promise<ShowSummary> {
  return apiFetch<ShowSummary>(`/api/shows/${id}/end`, { method: "POST" });
}

/** GET /api/shows: every show for managers, one's own for anyone else. */
export function listShows(signal?: AbortSignal): Promise<ShowListItem[]> {
  return apiFetch<ShowListItem[]>("/api/shows", { signal });
}

export function getShow(id: number, signal?: AbortSignal): Promise<ShowSummary> {
  return apiFetch<ShowSummary>(`/api/shows/${id}`, { signal });
}

/** The CSV download of a show's summary (product, barcode, sold, added, net). */
export const showCsvUrl = (id: number) => `/api/shows/${id}/csv`;
