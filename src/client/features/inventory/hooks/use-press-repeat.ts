import { type MouseEvent, type PointerEvent, useEffect, useLayoutEffect, useRef } from "react";
import { createPressRepeater, type PressRepeater } from "../long-press";

/**
 * Button handlers for click-or-hold: pointer down steps once and repeats while held;
 * a keyboard click steps once. `owner` is what the steps are for (a product): a press steps the
 * owner it began on, and stops when the button is given another one (a table row or a card is
 * reused for the product at its place when the rows change), so a held press never steps
 * another product.
 */
export function usePressRepeat(onStep: () => boolean, owner: unknown) {
  const stepRef = useRef(onStep);
  stepRef.current = onStep;
  // The step of the owner the press began on (stepRef follows the render, which may show another owner).
  const held = useRef(onStep);
  const repeater = useRef<PressRepeater | null>(null);
  if (repeater.current === null) repeater.current = createPressRepeater(() => held.current());

  useEffect(() => {
    const stop = () => repeater.current?.release();
    window.addEventListener("pointerup", stop);
    window.addEventListener("blur", stop);
    return () => {
      window.removeEventListener("pointerup", stop);
      window.removeEventListener("blur", stop);
      stop();
    };
  }, []);
  // A new owner: the press held for the previous one ends (before the browser paints the new one).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the owner changes.
  useLayoutEffect(() => () => repeater.current?.release(), [owner]);

  return {
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => {
      if (e.button !== 0) return;
      held.current = stepRef.current;
      repeater.current?.press();
    },
    onPointerUp: () => repeater.current?.release(),
    onPointerLeave: () => repeater.current?.release(),
    onPointerCancel: () => repeater.current?.release(),
    onContextMenu: (e: MouseEvent<HTMLButtonElement>) => e.preventDefault(),
    // detail 0: a click from the keyboard (Enter or Space), which has no pointer down.
    onClick: (e: MouseEvent<HTMLButtonElement>) => {
      if (e.detail === 0) stepRef.current();
    },
  };
}
