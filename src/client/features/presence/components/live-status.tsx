import { ChevronDown, Users } from "lucide-react";
import { Popover } from "radix-ui";
import { cn } from "../../../lib/cn";
import { RoleLabel } from "../../auth";
import { useLive } from "../hooks/use-live";

/** Live/Offline, the number of users online and, for non-streamers, who they are. */
export function LiveStatus({ showUsers }: { showUsers: boolean }) {
  const { connected, userCount, onlineUsers, authError } = useLive();
  const status = (
    <span className="inline-flex items-center gap-1.5" title={authError?.message}>
      <span aria-hidden="true" className={cn("h-2.5 w-2.5 rounded-full", connected ? "bg-green-600" : "bg-gray-500 dark:bg-gray-400")} />
      <span data-testid="live-state" className="sr-only sm:not-sr-only">
        {connected ? "Live" : "Offline"}
      </span>
    </span>
  );
  const count = (
    <span className="inline-flex items-center gap-1">
      <Users aria-hidden="true" className="h-4 w-4" />
      <span data-testid="online-count">{userCount}</span>
      <span className="sr-only">online</span>
    </span>
  );
  const base =
    "inline-flex h-9 items-center gap-2 rounded-full border border-gray-300 px-2 text-sm sm:gap-3 sm:px-3 font-medium text-gray-800 dark:border-gray-600 dark:text-gray-100";

  if (!showUsers || userCount <= 1) {
    return (
      <div className={base} data-testid="live-status">
        {status}
        {count}
      </div>
    );
  }
  return (
    <Popover.Root>
      <Popover.Trigger
        className={cn(base, "hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:hover:bg-gray-800")}
        aria-label={`${connected ? "Live" : "Offline"}, ${userCount} online. Show online users`}
        data-testid="live-status"
      >
        {status}
        {count}
        <ChevronDown aria-hidden="true" className="h-4 w-4" />
      </Popover.Trigger>
      <Popover.Portal>
        <Popover.Content
          align="end"
          aria-labelledby="online-users-title"
          sideOffset={6}
          className="z-50 w-64 rounded-xl border border-gray-200 bg-white p-2 text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50"
        >
          <h2 id="online-users-title" className="px-2 py-1 text-sm font-semibold">
            Online users
          </h2>
          <ul className="flex flex-col" data-testid="online-users">
            {onlineUsers.map((u) => (
              <li key={u.username} className="flex items-center justify-between gap-2 rounded-md px-2 py-1.5 text-sm">
                <span className="truncate font-medium">{u.username}</span>
                <RoleLabel role={u.role} className="text-xs" />
              </li>
            ))}
          </ul>
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
