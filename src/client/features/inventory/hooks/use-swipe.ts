import { type PointerEvent, useRef, useState } from "react";
import { isHorizontalDrag, type SwipeAction, swipeAction, swipeHint, swipeOffset } from "../swipe";

/** Elements a swipe never starts on (their own clicks win). */
const INTERACTIVE = "button, a, input, select, textarea, label";

/**
 * Pointer-event swipe on a card: offset (capped), hint beyond 30 px, action beyond 50 px on release.
 * `owner`: what the card shows (a product's id); a swipe begun on one owner ends without its
 * action when the card shows another by then (a card is reused for the product at its place).
 */
export function useSwipe(enabled: boolean, onAction: (action: SwipeAction) => void, owner?: unknown) {
  const start = useRef<{ x: number; y: number; id: number; owner: unknown } | null>(null);
  const horizontal = useRef(false);
  const [drag, setDrag] = useState<{ owner: unknown; dx: number }>({ owner, dx: 0 });
  const dx = drag.owner === owner ? drag.dx : 0;
  const setDx = (next: number) => setDrag({ owner, dx: next });

  const reset = () => {
    start.current = null;
    horizontal.current = false;
    setDx(0);
  };

  const handlers = enabled
    ? {
        onPointerDown: (e: PointerEvent<HTMLElement>) => {
          if (e.button !== 0 || (e.target as Element).closest(INTERACTIVE)) return;
          start.current = { x: e.clientX, y: e.clientY, id: e.pointerId, owner };
          horizontal.current = false;
        },
        onPointerMove: (e: PointerEvent<HTMLElement>) => {
          const s = start.current;
          if (!s || s.id !== e.pointerId) return;
          if (s.owner !== owner) return reset();
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
          const action = horizontal.current && s.owner === owner ? swipeAction(e.clientX - s.x) : null;
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
