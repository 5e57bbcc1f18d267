import { keepPreviousData, useInfiniteQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { PriceProposal, proposalsAnswerSchema } from "../../../../contract/prices";
import { apiFetch } from "../../../lib/http";
import { priceKeys } from "./keys";

export type ProposalsAnswer = z.infer<typeof proposalsAnswerSchema>;

/** Proposals asked for at a time ("Show more" asks for the next as many). */
export const PROPOSALS_PAGE = 100;

/** GET /api/prices/proposals: one page of the pending proposals, the most money at stake first; `big` only the big moves. */
export function listProposals(page: { limit: number; offset: number; big: boolean }, signal?: AbortSignal): Promise<ProposalsAnswer> {
  const query = new URLSearchParams({ limit: String(page.limit), offset: String(page.offset) });
  if (page.big) query.set("big", "true");
  return apiFetch<ProposalsAnswer>(`/api/prices/proposals?${query}`, { signal });
}

/** The proposals page by page; `proposals` the pages so far in one list, `total` and `big` from the latest page. */
export function useProposals(big: boolean) {
  const query = useInfiniteQuery({
    queryKey: priceKeys.proposalsList(big),
    queryFn: ({ pageParam, signal }) => listProposals({ limit: PROPOSALS_PAGE, offset: pageParam, big }, signal),
    initialPageParam: 0,
    // Switching to big moves only (and back) keeps the list on screen until the other arrives.
    placeholderData: keepPreviousData,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.proposals.length, 0);
      const shown = big ? last.big : last.total;
      return last.proposals.length > 0 && loaded < shown ? loaded : undefined;
    },
  });
  const pages = query.data?.pages ?? [];
  const proposals: PriceProposal[] = pages.flatMap((p) => p.proposals);
  const latest = pages.at(-1);
  return { ...query, proposals, total: latest?.total ?? 0, big: latest?.big ?? 0 };
}
