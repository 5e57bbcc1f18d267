import { Boxes, LogOut } from "lucide-react";
import { useRef } from "react";
import { Link, type To, useNavigate } from "react-router";
import { Button } from "../components/ui/button";
import { RoleLabel, useAuth } from "../features/auth";
import { ActivityMenu } from "../features/notifications";
import { LiveStatus } from "../features/presence";
import { WaitingTaps } from "../features/streamer";
import { ThemeToggle } from "../features/theme";
import { cn } from "../lib/cn";
import { useHeightVar } from "../lib/use-height-var";
import { VIEW_PATHS } from "./routes";
import { VIEW_LABELS, type View } from "./views";

interface TopBarProps {
  views: View[];
  /** The view on screen. */
  view: View;
  /** Where it is now (its query string included): its own link stays there. */
  here: To;
}

/** Product name, user and role, live status, navigation (a link per view), theme and Logout. */
export function TopBar({ views, view, here }: TopBarProps) {
  const { user, logout, isStreamer } = useAuth();
  const navigate = useNavigate();
  const ref = useRef<HTMLElement>(null);
  // Sticky search bars, table headers and live toasts sit below the header, whatever height it wraps to.
  useHeightVar(ref, "--app-header-height");
  if (!user) return null;
  return (
    <header
      ref={ref}
      className="sticky top-0 z-30 border-b border-gray-200 bg-white/95 backdrop-blur dark:border-gray-800 dark:bg-gray-950/95"
    >
      <div className="mx-auto flex max-w-page flex-wrap items-center gap-x-2 gap-y-1.5 px-2 py-1.5 sm:gap-x-3 sm:px-4 sm:py-2">
        <div className="flex min-w-0 flex-1 items-center gap-2">
          <Boxes aria-hidden="true" className="hidden h-6 w-6 shrink-0 sm:block text-blue-700 dark:text-blue-400" />
          <div className="min-w-0">
            <p className="truncate text-sm font-bold leading-tight sm:text-base">Blez Inventory</p>
            <p className="flex min-w-0 flex-wrap items-center gap-x-2 text-xs leading-tight">
              <span className="truncate font-medium text-gray-800 dark:text-gray-100" data-testid="current-username">
                {user.username}
              </span>
              <RoleLabel role={user.role} />
            </p>
          </div>
        </div>
        <div className="ml-auto flex items-center gap-1 sm:gap-1.5">
          <WaitingTaps />
          <LiveStatus showUsers={!isStreamer} />
          <ActivityMenu />
          <ThemeToggle />
          <Button
            variant="outline"
            size="sm"
            className="px-2 sm:px-3"
            onClick={() => {
              // The next person to sign in on this device starts at their own first screen.
              void logout().then(() => navigate("/", { replace: true }));
            }}
          >
            <LogOut aria-hidden="true" className="h-4 w-4" />
            <span className="sr-only sm:not-sr-only">Logout</span>
          </Button>
        </div>
        {views.length > 1 ? (
          <nav aria-label="Views" className="flex w-full gap-1 overflow-x-auto">
            {views.map((v) => (
              <Link
                key={v}
                to={v === view ? here : VIEW_PATHS[v]}
                aria-current={v === view ? "page" : undefined}
                className={cn(
                  "flex h-8 shrink-0 items-center rounded-lg px-3 text-sm font-semibold sm:h-9 transition-colors focus-visible:outline-2 focus-visible:outline-blue-600",
                  v === view
                    ? "bg-blue-700 text-white dark:bg-blue-600"
                    : "text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-800",
                )}
              >
                {VIEW_LABELS[v]}
              </Link>
            ))}
          </nav>
        ) : null}
      </div>
    </header>
  );
}
