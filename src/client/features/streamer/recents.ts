import { RECENT_PRODUCTS_MAX } from "../../../contract/rules";

/** Puts `barcode` first, without duplicates, at most RECENT_PRODUCTS_MAX. */
export function pushRecent(list: readonly string[], barcode: string, max = RECENT_PRODUCTS_MAX): string[] {
  return [barcode, ...list.filter((b) => b !== barcode)].slice(0, max);
}

export function removeRecent(list: readonly string[], barcode: string): string[] {
  return list.filter((b) => b !== barcode);
}

interface Saved {
  current: string | null;
  recents: string[];
}

const key = (userId: number) => `blez-streamer-${userId}`;

/** The streamer's current product and recents survive a reload (per user, this tab's browser). */
export function loadStreamerState(userId: number): Saved {
  try {
    const raw = sessionStorage.getItem(key(userId));
    if (!raw) return { current: null, recents: [] };
    const parsed = JSON.parse(raw) as Partial<Saved>;
    const recents = Array.isArray(parsed.recents) ? parsed.recents.filter((b) => typeof b === "string") : [];
    return { current: typeof parsed.current === "string" ? parsed.current : null, recents: recents.slice(0, RECENT_PRODUCTS_MAX) };
  } catch {
    return { current: null, recents: [] };
  }
}

export function saveStreamerState(userId: number, state: Saved): void {
  try {
    sessionStorage.setItem(key(userId), JSON.stringify(state));
  } catch {
    // storage unavailable
  }
}
