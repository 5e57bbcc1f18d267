import { type PointerEvent, useRef, useState } from "react";
import { isHorizontalDrag, type SwipeAction, swipeAction, swipeHint, swipeOffset } from "../swipe";

/** Elements a swipe never starts on (their own clicks win). */
const INTERACTIVE = "button, a, input, select, textarea, label";

/** Pointer-event swipe on a card: offset (capped), hint beyond 30 px, action beyond 50 px on release. */
export function useSwipe(enabled: boolean, onAction: (action: SwipeAction) => void) {
  const start = useRef<{ x: number; y: number; id: number } | null>(null);
  const horizontal = useRef(false);
  const [dx, setDx] = useState(0);

  const reset = () => {
    start.current = null;
    horizontal.current = false;
    setDx(0);
  };

  const handlers = enabled
    ? {
        onPointerDown: (e: PointerEvent<HTMLElement>) => {
          if (e.button !== 0 || (e.target as Element).closest(INTERACTIVE)) return;
          start.current = { x: e.clientX, y: e.clientY, id: e.pointerId };
          horizontal.current = false;
        },
        onPointerMove: (e: PointerEvent<HTMLElement>) => {
          const s = start.current;
          if (!s || s.id !== e.pointerId) return;
          const moveX = e.clientX - s.x;
          const moveY = e.clientY - s.y;
          if (!horizontal.current) {
            if (!isHorizontalDrag(moveX, moveY)) return;
            horizontal.current = true;
            e.currentTarget.setPointerCapture?.(e.pointerId);
            // A drag is not a text selection.
            window.getSelection()?.removeAllRanges();
          }
          setDx(moveX);
        },
        onPointerUp: (e: PointerEvent<HTMLElement>) => {
          const s = start.current;
          if (!s || s.id !== e.pointerId) return;
          const action = horizontal.current ? swipeAction(e.clientX - s.x) : null;
          reset();
          if (action) onAction(action);
        },
        onPointerCancel: reset,
      }
    : {};

  return {
    handlers,
    offset: enabled ? swipeOffset(dx) : 0,
    hint: enabled ? swipeHint(dx) : null,
    dragging: dx !== 0,
  };
}
