import { createContext, type ReactNode, useCallback, useContext, useMemo, useRef, useState, useSyncExternalStore } from "react";
import { toast } from "sonner";
import type { InventoryUpdate } from "../../../contract/events";
import { describeEntry, type FeedEntry, LiveFeed, readMuted, storeMuted } from "./live-feed";
import { LIVE_TOASTER_ID } from "./toasters";

interface LiveFeedState {
  feed: LiveFeed;
  muted: boolean;
  setMuted: (muted: boolean) => void;
  /** A live inventory_update: other users' changes join the activity list and, unless muted, show as a toast. */
  push: (update: InventoryUpdate) => void;
}

const FeedContext = createContext<LiveFeedState | null>(null);

/** Live notifications for the signed-in user (give the provider a `key` of the user). */
export function LiveFeedProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const [feed] = useState(() => new LiveFeed());
  const [muted, setMutedState] = useState(() => readMuted(userId));
  const mutedRef = useRef(muted);
  mutedRef.current = muted;

  const setMuted = useCallback(
    (next: boolean) => {
      storeMuted(userId, next);
      setMutedState(next);
      if (next) toast.dismiss();
    },
    [userId],
  );

  const push = useCallback(
    (update: InventoryUpdate) => {
      // The spec: events from the current user are ignored.
      if (update.userId === userId) return;
      const entry = feed.push(update);
      // A group's toast is updated in place (same id), so six quick sales are one toast.
      if (!mutedRef.current) toast(describeEntry(entry), { id: entry.id, toasterId: LIVE_TOASTER_ID });
    },
    [feed, userId],
  );

  const value = useMemo(() => ({ feed, muted, setMuted, push }), [feed, muted, setMuted, push]);
  return <FeedContext.Provider value={value}>{children}</FeedContext.Provider>;
}

export function useLiveFeed(): LiveFeedState {
  const value = useContext(FeedContext);
  if (!value) throw new Error("useLiveFeed outside LiveFeedProvider");
  return value;
}

/** The activity list: the last 50 changes by others, newest first. */
export function useActivity(): readonly FeedEntry[] {
  const { feed } = useLiveFeed();
  return useSyncExternalStore(feed.subscribe, feed.getEntries);
}
