import { type RefObject, useLayoutEffect } from "react";

/**
 * Keeps a CSS variable on <html> at an element's height (e.g. --app-header-height), so sticky
 * parts below it, toasts and table headers can sit under it whatever it wraps to.
 */
export function useHeightVar(ref: RefObject<HTMLElement | null>, name: `--${string}`): void {
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const root = document.documentElement;
    const set = () => root.style.setProperty(name, `${Math.ceil(el.getBoundingClientRect().height)}px`);
    // The observer's first report comes after the next layout and before that frame is painted
    // (then laid out again): set there, the commit that mounts the element forces no layout.
    const observer = new ResizeObserver(set);
    observer.observe(el);
    return () => {
      observer.disconnect();
      root.style.removeProperty(name);
    };
  }, [ref, name]);
}
