import { useQuery } from "@tanstack/react-query";
import { useCallback } from "react";
import { formatMoney } from "../../../contract/money";
import { CURRENCY_DEFAULT } from "../../../contract/rules";
import type { Settings } from "../../../contract/settings";
import { apiFetch } from "../../lib/http";

/** GET /api/settings: the shop's settings every signed-in screen needs (its currency). */
export function useSettings(): Settings {
  const { data } = useQuery({
    queryKey: ["settings"],
    queryFn: ({ signal }) => apiFetch<Settings>("/api/settings", { signal }),
    staleTime: Number.POSITIVE_INFINITY,
  });
  return data ?? { currency: CURRENCY_DEFAULT };
}

/** A formatter of whole cents in the shop's currency ("$12.50"); null shows as an empty string. */
export function useMoney(): (cents: number | null | undefined) => string {
  const { currency } = useSettings();
  // One function per currency: effects and memos that use it run again only when it changes.
  return useCallback((cents) => (cents === null || cents === undefined ? "" : formatMoney(cents, currency)), [currency]);
}
