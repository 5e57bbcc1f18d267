/** The page's <main>, where floating menus are portalled so they stay within a landmark (axe: region). */
export function mainLandmark(): HTMLElement | undefined {
  return typeof document === "undefined" ? undefined : (document.querySelector("main") ?? undefined);
}
