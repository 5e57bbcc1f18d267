import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
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

/** Live toasts wait until no key was pressed for this long... */
const TYPING_PAUSE_MS = 600;
/** ...but never longer than this (a toast is shown within a few seconds of its change). */
const TOAST_WAIT_MAX_MS = 4000;

/**
 * Live toasts, raised when the user is not typing. Mounting a toast measures its height (sonner),
 * which lays the page out there and then: live changes arriving while the user types in the
 * search box would each hold up a keystroke's rows. So a change's toast waits until no key has
 * been pressed for TYPING_PAUSE_MS (at most TOAST_WAIT_MAX_MS), then the waiting toasts are
 * raised together; a group's toast is raised with its latest text. The rows and the activity list
 * show each change at once; every change still gets its toast.
 */
class ToastBatch {
  private readonly waiting = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private since = 0;
  private lastKey = Number.NEGATIVE_INFINITY;
  private listening = false;

  private readonly onKey = (): void => {
    this.lastKey = performance.now();
  };

  add(id: string, text: string): void {
    if (!this.listening) {
      // Capture: a key counts even where a handler stops it.
      window.addEventListener("keydown", this.onKey, true);
      this.listening = true;
    }
    if (this.waiting.size === 0) this.since = performance.now();
    this.waiting.delete(id);
    this.waiting.set(id, text);
    this.schedule();
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.waiting.clear();
  }

  stop(): void {
    this.cancel();
    window.removeEventListener("keydown", this.onKey, true);
    this.listening = false;
  }

  private schedule(): void {
    if (this.timer !== null) return;
    const now = performance.now();
    const due = Math.min(this.lastKey + TYPING_PAUSE_MS, this.since + TOAST_WAIT_MAX_MS);
    this.timer = setTimeout(this.flush, Math.max(0, due - now));
  }

  private readonly flush = (): void => {
    this.timer = null;
    const now = performance.now();
    if (now < this.lastKey + TYPING_PAUSE_MS && now < this.since + TOAST_WAIT_MAX_MS) {
      this.schedule();
      return;
    }
    const batch = [...this.waiting];
    this.waiting.clear();
    for (const [id, text] of batch) toast(text, { id, toasterId: LIVE_TOASTER_ID });
  };
}

/** Live notifications for the signed-in user (give the provider a `key` of the user). */
export function LiveFeedProvider({ userId, children }: { userId: number; children: ReactNode }) {
  const [feed] = useState(() => new LiveFeed());
  const [muted, setMutedState] = useState(() => readMuted(userId));
  const mutedRef = useRef(muted);
  mutedRef.current = muted;
  // Toasts to raise, by id (the latest text of each): raised when the user is not typing.
  const [toasts] = useState(() => new ToastBatch());
  useEffect(() => () => toasts.stop(), [toasts]);

  const setMuted = useCallback(
    (next: boolean) => {
      storeMuted(userId, next);
      setMutedState(next);
      if (next) {
        toasts.cancel();
        toast.dismiss();
      }
    },
    [userId, toasts],
  );

  const push = useCallback(
    (update: InventoryUpdate) => {
      // The spec: events from the current user are ignored.
      if (update.userId === userId) return;
      const entry = feed.push(update);
      // A group's toast is updated in place (same id), so six quick sales are one toast.
      if (!mutedRef.current) toasts.add(entry.id, describeEntry(entry));
    },
    [feed, userId, toasts],
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
