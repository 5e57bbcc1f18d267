import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { FeedRun, PriceFeed } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { priceKeys } from "./keys";

/** A feed's file is read, matched and priced before the answer: a large one takes minutes. */
export const FEED_RUN_TIMEOUT_MS = 15 * 60_000;

/** A feed's file, or for TCGCSV its two files. */
export type FeedFiles = { file: Blob } | { products: Blob; prices: Blob };

/**
 * POST /api/prices/feeds/{id}/run with the file as multipart/form-data (fetch sets the boundary):
 * one `file` field, or for a TCGCSV feed `products` then `prices`; without files the server
 * fetches the feed's URL. Answers the run once it is done: `failed` (with its `error`) changed nothing.
 */
export function runFeed(feedId: number, files: FeedFiles | null): Promise<FeedRun> {
  return apiFetch<FeedRun>(`/api/prices/feeds/${feedId}/run`, {
    method: "POST",
    body: files ? formOf(files) : undefined,
    timeoutMs: FEED_RUN_TIMEOUT_MS,
  });
}

function formOf(files: FeedFiles): FormData {
  const body = new FormData();
  if ("file" in files) body.append("file", files.file, fileName(files.file, "feed"));
  else {
    // The server reads the products first: the order of the fields matters.
    body.append("products", files.products, fileName(files.products, "products.json"));
    body.append("prices", files.prices, fileName(files.prices, "prices.json"));
  }
  return body;
}

const fileName = (blob: Blob, fallback: string) => (blob instanceof File && blob.name ? blob.name : fallback);

/** Runs a feed (its files, or null: its URL); its row shows the run at once, and the proposals it made are fetched again. */
export function useRunFeed() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ feedId, files }: { feedId: number; files: FeedFiles | null }) => runFeed(feedId, files),
    onSuccess: (run) => {
      queryClient.setQueryData<PriceFeed[]>(priceKeys.feeds, (feeds) =>
        feeds?.map((f) => (f.id === run.feed_id ? { ...f, last_run: run } : f)),
      );
      void queryClient.invalidateQueries({ queryKey: priceKeys.proposals });
      // What the run's prices change where people look: the rows' market prices, the products under market, the unmatched.
      void queryClient.invalidateQueries({ queryKey: queryKeys.marketQuotes });
      void queryClient.invalidateQueries({ queryKey: priceKeys.underMarket });
      void queryClient.invalidateQueries({ queryKey: priceKeys.unmatched });
    },
  });
}
