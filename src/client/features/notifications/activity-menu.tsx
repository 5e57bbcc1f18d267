import { Bell, BellOff } from "lucide-react";
import { Popover } from "radix-ui";
import { useEffect, useState } from "react";
import { cn } from "../../lib/cn";
import { describeEntry } from "./live-feed";
import { useActivity, useLiveFeed } from "./live-feed-provider";

// One formatter (toLocaleTimeString with options makes a new one per call, a cost per entry per change).
const TIME = new Intl.DateTimeFormat("en-US", { hour: "numeric", minute: "2-digit", second: "2-digit" });
const time = (ms: number) => TIME.format(ms);

/** The top bar's bell: the last 50 changes by others (nothing is missed while muted) and the mute switch. */
export function ActivityMenu() {
  const { muted, setMuted } = useLiveFeed();
  const entries = useActivity();
  const [open, setOpen] = useState(false);
  const [seen, setSeen] = useState(0);
  const newest = entries[0]?.at ?? 0;
  const unread = entries.filter((e) => e.at > seen).length;
  useEffect(() => {
    if (open) setSeen(newest);
  }, [open, newest]);
  const Icon = muted ? BellOff : Bell;

  return (
    <Popover.Root open={open} onOpenChange={setOpen}>
      <Popover.Trigger
        aria-label={`Activity${unread > 0 ? `, ${unread} new` : ""}${muted ? ", notifications muted" : ""}`}
        data-testid="activity-button"
        className="relative inline-flex h-9 w-9 items-center justify-center rounded-lg text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-gray-100 dark:hover:bg-gray-800"
      >
        <Icon aria-hidden="true" className="h-5 w-5" />
        {unread > 0 ? (
          <span
            aria-hidden="true"
            className="absolute -right-0.5 -top-0.5 min-w-4 rounded-full bg-red-700 px-1 text-center text-[0.65rem] font-bold leading-4 text-white"
          >
            {unread > 9 ? "9+" : unread}
          </span>
        ) : null}
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          aria-labelledby="activity-title"
          className="z-50 flex max-h-[70dvh] w-80 max-w-[calc(100vw-1rem)] flex-col rounded-xl border border-gray-200 bg-white text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50"
        >
          <div className="flex items-center justify-between gap-2 border-b border-gray-200 p-2 dark:border-gray-700">
            <h2 id="activity-title" className="px-1 text-sm font-semibold">
              Recent activity
            </h2>
            <label className="flex cursor-pointer items-center gap-2 text-sm">
              <input type="checkbox" className="h-4 w-4 accent-blue-700" checked={muted} onChange={(e) => setMuted(e.target.checked)} />
              Mute notifications
            </label>
          </div>
          {!open ? null : entries.length === 0 ? (
            <p className="p-3 text-sm text-gray-700 dark:text-gray-300">No changes by others yet.</p>
          ) : (
            <ol
              // biome-ignore lint/a11y/noNoninteractiveTabindex: a long list scrolls; focusable, a keyboard scrolls it too (axe scrollable-region-focusable)
              tabIndex={0}
              className="min-h-0 overflow-y-auto p-1 focus-visible:outline-2 focus-visible:outline-blue-600"
              data-testid="activity-list"
              aria-label="Changes by others, newest first"
            >
              {entries.map((e) => (
                <li key={e.id} className={cn("flex flex-col rounded-md px-2 py-1.5 text-sm", e.at > seen && "font-semibold")}>
                  <span>{describeEntry(e)}</span>
                  <time className="text-xs font-normal text-gray-700 dark:text-gray-300">{time(e.at)}</time>
                </li>
              ))}
            </ol>
          )}
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
