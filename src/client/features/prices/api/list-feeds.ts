import { useQuery } from "@tanstack/react-query";
import type { PriceFeed } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** While a feed's run is under way (a scheduled fetch), the list is asked again this often. */
const RUNNING_POLL_MS = 5_000;

/** GET /api/prices/feeds: the shop's feeds, each with its last run (managers and super_admin). */
export function listFeeds(signal?: AbortSignal): Promise<PriceFeed[]> {
  return apiFetch<PriceFeed[]>("/api/prices/feeds", { signal });
}

export function useFeeds() {
  return useQuery({
    queryKey: priceKeys.feeds,
    queryFn: ({ signal }) => listFeeds(signal),
    refetchInterval: (query) => (query.state.data?.some((f) => f.last_run?.status === "running") ? RUNNING_POLL_MS : false),
  });
}
