import { createElement, useEffect, useState } from "react";
import { ViewLoading } from "../../components/ui/spinner";
import type { InventoryViewProps } from "./components/inventory-view";

export type { InventoryViewProps };

type InventoryModule = typeof import("./components/inventory-view");

let loading: Promise<InventoryModule> | null = null;
let loaded: InventoryModule | null = null;

/** Starts loading the inventory screen's code (once): a returning user's first screen loads while the session is checked. */
export const preloadInventoryView = () => {
  loading ??= import("./components/inventory-view").then((m) => {
    loaded = m;
    return m;
  });
  return loading;
};

/**
 * The inventory screen, its code loaded when first shown (streamers never load it). Not
 * React.lazy: a lazy component suspends on its first render even when its code is here, and React
 * renders the retry in slices between the page's other tasks (on a returning user's first screen,
 * the catalogue's download and parse), so the first rows came later. Here the screen renders in
 * the render that shows it when its code is here, else in the one right after the code comes.
 */
export function InventoryView(props: InventoryViewProps) {
  const [module, setModule] = useState(loaded);
  const [failed, setFailed] = useState<{ error: unknown } | null>(null);
  useEffect(() => {
    if (!module) preloadInventoryView().then(setModule, (error: unknown) => setFailed({ error }));
  }, [module]);
  // As a lazy component's: the code that could not load is an error of the render.
  if (failed) throw failed.error;
  return module ? createElement(module.InventoryView, props) : createElement(ViewLoading);
}
