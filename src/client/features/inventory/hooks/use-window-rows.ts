import { useCallback, useEffect, useState } from "react";
import { flushSync } from "react-dom";

interface View {
  top: number;
  height: number;
}

const viewNow = (): View => ({ top: window.scrollY, height: window.innerHeight });

/**
 * The rows of a list of fixed-height rows that are in the window's view (window scrolling), with
 * `overscan` more each side. Rows of one height need no bookkeeping per row: a list of 100,000
 * that changes length on every keystroke costs nothing to lay out (a general virtualizer measures
 * every row again when the count changes). `margin`: the list's top in the document;
 * `paddingStart`: what covers the top of the window (sticky bars), for `scrollToIndex`.
 */
export function useWindowRows(count: number, rowPx: number, margin: number, overscan: number, paddingStart = 0) {
  const [view, setView] = useState<View>(viewNow);
  useEffect(() => {
    const update = () => {
      const next = viewNow();
      // Synchronously while scrolling, so no blank rows are painted.
      flushSync(() => setView((v) => (v.top === next.top && v.height === next.height ? v : next)));
    };
    window.addEventListener("scroll", update, { passive: true });
    window.addEventListener("resize", update);
    // A scroll since the render is read at the next frame, which lays the page out anyway: read
    // here, the scroll position would force the layout of the rows this commit just mounted.
    const frame = requestAnimationFrame(update);
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener("scroll", update);
      window.removeEventListener("resize", update);
    };
  }, []);
  const first = Math.max(0, Math.floor((view.top - margin) / rowPx) - overscan);
  const last = Math.min(count - 1, Math.ceil((view.top - margin + view.height) / rowPx) + overscan);

  /** Scrolls the least that brings row `index` into view, below what covers the window's top. */
  const scrollToIndex = useCallback(
    (index: number) => {
      const top = margin + index * rowPx;
      const bottom = top + rowPx;
      if (top < window.scrollY + paddingStart) window.scrollTo({ top: top - paddingStart });
      else if (bottom > window.scrollY + window.innerHeight) window.scrollTo({ top: bottom - window.innerHeight });
    },
    [margin, rowPx, paddingStart],
  );
  return { first, last, totalSize: count * rowPx, scrollToIndex };
}
