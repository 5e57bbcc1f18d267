/** How the screens feel to the touch: timings and sizes of gestures and of the camera scanner. */

/** Holding a quantity button this long makes one step, then another every REPEAT_MS until release. */
export const LONG_PRESS_MS = 500;
export const REPEAT_MS = 150;

/** A card dragged sideways: its action past SWIPE_ACTION_PX, a hint past SWIPE_HINT_PX; it moves SWIPE_MAX_PX at most. */
export const SWIPE_ACTION_PX = 50;
export const SWIPE_MAX_PX = 100;
export const SWIPE_HINT_PX = 30;

/** The camera scanner: frames decoded per second, and the size of its aiming box. */
export const SCANNER_FPS = 10;
export const SCANNER_BOX_PX = 250;
