import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateFeedBody, PriceFeed } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

/** POST /api/prices/feeds: the new feed (409 when its name is taken). */
export function createFeed(body: CreateFeedBody): Promise<PriceFeed> {
  return apiFetch<PriceFeed>("/api/prices/feeds", { method: "POST", body });
}

export function useCreateFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFeed,
    onSettled: () => queryClient.invalidateQueries({ queryKey: priceKeys.feeds }),
  });
}
