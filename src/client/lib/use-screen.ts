import { useSyncExternalStore } from "react";

/** The layout's breakpoints (Tailwind's, and the two of styles.css), in CSS pixels. */
export const BREAKPOINTS = { sm: 640, md: 768, lg: 1024, laptop: 1400, page: 1680 } as const;
export type Breakpoint = keyof typeof BREAKPOINTS;

const ORDER = Object.keys(BREAKPOINTS) as Breakpoint[];
const queries = new Map<Breakpoint, MediaQueryList>();
function query(b: Breakpoint): MediaQueryList | null {
  if (typeof matchMedia !== "function") return null;
  let q = queries.get(b);
  if (!q) {
    q = matchMedia(`(min-width: ${BREAKPOINTS[b]}px)`);
    queries.set(b, q);
  }
  return q;
}

function subscribe(onChange: () => void): () => void {
  const lists = ORDER.map(query);
  for (const l of lists) l?.addEventListener("change", onChange);
  return () => {
    for (const l of lists) l?.removeEventListener("change", onChange);
  };
}

/** How many breakpoints the window is at or above (0: below sm; 5: page); -1 where media queries are unknown. */
function level(): number {
  if (typeof matchMedia !== "function") return -1;
  let n = 0;
  for (const b of ORDER) if (query(b)?.matches) n++;
  return n;
}

/** The window's width as a level (useSyncExternalStore: re-renders when it crosses a breakpoint), for `atLeast`. */
export function useScreenLevel(): number {
  return useSyncExternalStore(subscribe, level, () => -1);
}

/**
 * Whether a window of `screen` level (useScreenLevel) is at least breakpoint `b` wide: for parts
 * not worth rendering where CSS would hide them. True where media queries are unknown (the CSS decides).
 */
export function atLeast(screen: number, b: Breakpoint | undefined): boolean {
  return b === undefined || screen < 0 || screen > ORDER.indexOf(b);
}
