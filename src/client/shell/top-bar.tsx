import { Boxes, LogOut } from "lucide-react";
import { Button } from "../components/ui/button";
import { RoleLabel, useAuth } from "../features/auth";
import { LiveStatus } from "../features/presence";
import { ThemeToggle } from "../features/theme";
import { cn } from "../lib/cn";
import { VIEW_LABELS, type View } from "./views";

interface TopBarProps {
  views: View[];
  view: View;
  onViewChange: (view: View) => void;
}

/** Product name, user and role, live status, navigation, theme and Logout. */
export function TopBar({ views, view, onViewChange }: TopBarProps) {
  const { user, logout, isStreamer } = useAuth();
  if (!user) return null;
  return (
    <header className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur dark:border-gray-800 dark:bg-gray-950/95">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2 px-3 py-2 sm:px-4">
        <div className="flex min-w-[12rem] flex-1 items-center gap-2">
          <Boxes aria-hidden="true" className="h-6 w-6 shrink-0 text-blue-700 dark:text-blue-400" />
          <div className="min-w-0">
            <p className="truncate text-base font-bold leading-tight">Blez Inventory</p>
            <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-xs leading-tight">
              <span className="truncate font-medium text-gray-800 dark:text-gray-100" data-testid="current-username">
                {user.username}
              </span>
              <RoleLabel role={user.role} />
            </p>
          </div>
        </div>
        <div className="ml-auto flex items-center gap-1.5">
          <LiveStatus showUsers={!isStreamer} />
          <ThemeToggle />
          <Button variant="outline" size="sm" onClick={() => void logout()}>
            <LogOut aria-hidden="true" className="h-4 w-4" />
            Logout
          </Button>
        </div>
        {views.length > 1 ? (
          <nav aria-label="Views" className="flex w-full gap-1 overflow-x-auto">
            {views.map((v) => (
              <button
                key={v}
                type="button"
                aria-current={v === view ? "page" : undefined}
                onClick={() => onViewChange(v)}
                className={cn(
                  "h-9 shrink-0 rounded-lg px-3 text-sm font-semibold transition-colors focus-visible:outline-2 focus-visible:outline-blue-600",
                  v === view
                    ? "bg-blue-700 text-white dark:bg-blue-600"
                    : "text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-800",
                )}
              >
                {VIEW_LABELS[v]}
              </button>
            ))}
          </nav>
        ) : null}
      </div>
    </header>
  );
}
