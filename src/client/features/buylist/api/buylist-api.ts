import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { BuylistAnswer, BuylistReceipt, BuylistSubmission } from "../../../../contract/buylist";
import { apiFetch } from "../../../lib/http";

/** The public buylist's calls (issue 40): made without a session, so a 401 never signs anyone out. */
export const buylistKeys = {
  page: (q: string, offset: number) => ["buylist", q, offset] as const,
};

export const BUYLIST_PAGE_SIZE = 20;

/** GET /api/buylist: a page of the cards the shop is buying, `q` searching name and set. */
export function useBuylist(q: string, offset: number) {
  return useQuery({
    queryKey: buylistKeys.page(q, offset),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ limit: String(BUYLIST_PAGE_SIZE), offset: String(offset) });
      if (q) params.set("q", q);
      return apiFetch<BuylistAnswer>(`/api/buylist?${params}`, { signal, anonymous: true });
    },
    placeholderData: keepPreviousData,
  });
}

/** POST /api/buylist/submissions: the customer's list, received by the shop as a pending trade-in. */
export async function sendBuylist(body: BuylistSubmission): Promise<BuylistReceipt> {
  return (await apiFetch<{ submission: BuylistReceipt }>("/api/buylist/submissions", { method: "POST", body, anonymous: true })).submission;
}
