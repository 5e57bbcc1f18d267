import { useQuery } from "@tanstack/react-query";
import type { ShowSummary } from "../../../../contract/shows";
import { isRetryable } from "../../../lib/retry";
import { getCurrentShow, showKeys } from "./shows-api";

const storageKey = (userId: number) => `blez-show-${userId}`;

function remembered(userId: number): ShowSummary | null {
  try {
    const raw = localStorage.getItem(storageKey(userId));
    return raw ? (JSON.parse(raw) as ShowSummary) : null;
  } catch {
    return null;
  }
}

function remember(userId: number, show: ShowSummary | null): void {
  try {
    if (show) localStorage.setItem(storageKey(userId), JSON.stringify(show));
    else localStorage.removeItem(storageKey(userId));
  } catch {
    // storage unavailable
  }
}

/**
 * The user's running show with its tally (null: none). Remembered on this device, so taps made
 * while the server is out of reach (also after a reload) still name the show they belong to.
 */
export function useCurrentShow(userId: number) {
  return useQuery({
    queryKey: showKeys.current,
    queryFn: async ({ signal }) => {
      try {
        const show = await getCurrentShow(signal);
        remember(userId, show);
        return show;
      } catch (err) {
        const kept = remembered(userId);
        if (kept && isRetryable(err)) return kept;
        throw err;
      }
    },
    retry: false,
    refetchOnWindowFocus: false,
  });
}

export { remember as rememberCurrentShow };
