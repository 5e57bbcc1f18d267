import { Toaster } from "sonner";
import { LIVE_TOAST_MS, LIVE_TOASTS_MAX } from "../../../contract/rules";

/** The id of the toaster that shows live events from other users. */
export const LIVE_TOASTER_ID = "live";

/** Below the sticky top bar: toasts never cover its controls. */
const BELOW_HEADER = { top: "calc(var(--app-header-height, 0px) + 8px)" };

/**
 * Both toast containers: the app's own messages (bottom) and the live feed (5 shown, newest
 * first, 5 s, closable), stacked under the top bar and expanding only on hover, so a run of
 * changes does not cover the page.
 */
export function Toasters({ theme }: { theme: "light" | "dark" }) {
  return (
    <>
      <Toaster theme={theme} position="bottom-center" richColors closeButton containerAriaLabel="Notifications" />
      <Toaster
        id={LIVE_TOASTER_ID}
        theme={theme}
        position="top-right"
        visibleToasts={LIVE_TOASTS_MAX}
        duration={LIVE_TOAST_MS}
        offset={BELOW_HEADER}
        mobileOffset={BELOW_HEADER}
        closeButton
        containerAriaLabel="Live updates"
      />
    </>
  );
}
