import { useSyncExternalStore } from "react";
import { Toaster } from "sonner";
import { LIVE_TOAST_MS, LIVE_TOASTS_MAX } from "../../../contract/rules";

/** The id of the toaster that shows live events from other users. */
export const LIVE_TOASTER_ID = "live";

/** Below the sticky top bar: toasts never cover its controls. */
const BELOW_HEADER = { top: "calc(var(--app-header-height, 0px) + 8px)" };

const WIDE = "(min-width: 640px)";
function useWide(): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const query = matchMedia(WIDE);
      query.addEventListener("change", onChange);
      return () => query.removeEventListener("change", onChange);
    },
    () => matchMedia(WIDE).matches,
    () => true,
  );
}

/**
 * Both toast containers: the app's own messages (bottom) and the live feed (5 shown, newest
 * first, 5 s, closable), stacked (expanding on hover) so a run of changes does not cover the
 * page: bottom right on wide screens, away from the header and the screen's toolbars; on phones
 * just under the top bar, above the products.
 */
export function Toasters({ theme }: { theme: "light" | "dark" }) {
  const wide = useWide();
  return (
    <>
      <Toaster theme={theme} position="bottom-center" richColors closeButton containerAriaLabel="Notifications" />
      <Toaster
        id={LIVE_TOASTER_ID}
        theme={theme}
        position={wide ? "bottom-right" : "top-center"}
        visibleToasts={LIVE_TOASTS_MAX}
        duration={LIVE_TOAST_MS}
        mobileOffset={BELOW_HEADER}
        closeButton
        containerAriaLabel="Live updates"
      />
    </>
  );
}
