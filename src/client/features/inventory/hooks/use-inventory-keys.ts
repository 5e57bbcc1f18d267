import { type RefObject, useEffect, useRef } from "react";

function typing(el: Element | null): boolean {
  return el instanceof HTMLElement && (el.isContentEditable || ["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName));
}

/**
 * The inventory's keyboard shortcuts while no dialog is open: '/' focuses the search, 'A' adjusts
 * the stock of the product whose row or card has focus. Typing in a field is never taken.
 */
export function useInventoryKeys({
  searchRef,
  enabled,
  onAdjust,
}: {
  searchRef: RefObject<HTMLInputElement | null>;
  enabled: boolean;
  onAdjust: (productId: number) => void;
}): void {
  const adjust = useRef(onAdjust);
  adjust.current = onAdjust;
  useEffect(() => {
    if (!enabled) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey || typing(document.activeElement)) return;
      if (event.key === "/") {
        event.preventDefault();
        searchRef.current?.focus();
        searchRef.current?.select();
      } else if (event.key === "a" || event.key === "A") {
        const holder = document.activeElement?.closest<HTMLElement>("[data-product-id]");
        if (!holder) return;
        event.preventDefault();
        adjust.current(Number(holder.dataset.productId));
      }
    };
    window.addEventListener("keydown", onKeyDown);
    return () => window.removeEventListener("keydown", onKeyDown);
  }, [enabled, searchRef]);
}
