import { Toaster } from "sonner";
import { LIVE_TOAST_MS, LIVE_TOASTS_MAX } from "../../../contract/rules";

/** The id of the toaster that shows live events from other users. */
export const LIVE_TOASTER_ID = "live";

/** Both toast containers: the app's own messages and the live feed (5 shown, newest first, 5 s, closable). */
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
        expand
        closeButton
        containerAriaLabel="Live updates"
      />
    </>
  );
}
