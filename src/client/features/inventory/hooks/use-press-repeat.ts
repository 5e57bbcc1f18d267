import { type MouseEvent, type PointerEvent, useEffect, useRef } from "react";
import { createPressRepeater, type PressRepeater } from "../long-press";

/**
 * Button handlers for click-or-hold: pointer down steps once and repeats while held;
 * a keyboard click steps once.
 */
export function usePressRepeat(onStep: () => boolean) {
  const stepRef = useRef(onStep);
  stepRef.current = onStep;
  const repeater = useRef<PressRepeater | null>(null);
  if (repeater.current === null) repeater.current = createPressRepeater(() => stepRef.current());

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

  return {
    onPointerDown: (e: PointerEvent<HTMLButtonElement>) => {
      if (e.button !== 0) return;
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
