import { useEffect, useRef } from "react";
import { isTextEntry, WedgeDetector } from "../../scanner";

/** Listens for keyboard-wedge scans (fast bursts ending in Enter) while no text field has focus. */
export function useWedgeScanner(onScan: (code: string) => void, enabled: boolean): void {
  const latest = useRef(onScan);
  latest.current = onScan;
  useEffect(() => {
    if (!enabled) return;
    const detector = new WedgeDetector();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || isTextEntry(document.activeElement)) {
        detector.reset();
        return;
      }
      const result = detector.key(event.key, event.timeStamp);
      if (result.kind === "none") return;
      // The Enter ends a scan: it must not also press whatever button has focus (e.g. SOLD).
      event.preventDefault();
      event.stopPropagation();
      if (result.kind === "scan") latest.current(result.code);
    };
    window.addEventListener("keydown", onKeyDown, true);
    return () => window.removeEventListener("keydown", onKeyDown, true);
  }, [enabled]);
}
