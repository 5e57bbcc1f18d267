import { SWIPE_ACTION_PX, SWIPE_HINT_PX, SWIPE_MAX_PX } from "../../lib/ui-timings";

/** Swipe right edits, swipe left disables or enables (product managers only). */
export type SwipeAction = "edit" | "toggle";

/** Swiping is for product managers, and off for disabled products. */
export function swipeEnabled(canManageProducts: boolean, isActive: boolean): boolean {
  return canManageProducts && isActive;
}

/** The card's visual offset: the drag, capped at SWIPE_MAX_PX each way. */
export function swipeOffset(dx: number): number {
  return Math.max(-SWIPE_MAX_PX, Math.min(SWIPE_MAX_PX, dx));
}

function direction(dx: number): SwipeAction {
  return dx > 0 ? "edit" : "toggle";
}

/** The action hint shown while dragging, beyond SWIPE_HINT_PX. */
export function swipeHint(dx: number): SwipeAction | null {
  return Math.abs(dx) > SWIPE_HINT_PX ? direction(dx) : null;
}

/** The action a released drag triggers: more than SWIPE_ACTION_PX. */
export function swipeAction(dx: number): SwipeAction | null {
  return Math.abs(dx) > SWIPE_ACTION_PX ? direction(dx) : null;
}

/** A drag counts as a swipe once it moves more sideways than up or down (else the page scrolls). */
export function isHorizontalDrag(dx: number, dy: number): boolean {
  return Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(dy);
}
