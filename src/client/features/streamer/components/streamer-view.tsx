import { useQueryClient } from "@tanstack/react-query";
import { ScanLine } from "lucide-react";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import type { Product } from "../../../../contract/products";
import type { ShowLine } from "../../../../contract/shows";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Spinner } from "../../../components/ui/spinner";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { usePendingDelta, usePendingTaps, useProductStore } from "../../products";
import { LOOKUP_FAILED, loadScanner, notFoundMessage, ScannerOverlay } from "../../scanner";
import { playFeedback } from "../feedback";
import { useQuantityTaps } from "../hooks/use-quantity-taps";
import { useStreamerProducts } from "../hooks/use-streamer-products";
import { useWedgeScanner } from "../hooks/use-wedge-scanner";
import { DISABLED_IN_STREAM, DISABLED_RECENT } from "../messages";
import { showKeys } from "../shows/shows-api";
import { useCurrentShow } from "../shows/use-current-show";
import { CurrentProductCard } from "./current-product-card";
import { FeedbackSwitch } from "./feedback-switch";
import { LastTap } from "./last-tap";
import { RecentProducts } from "./recent-products";

// The shows panel (tally, summary, past shows) loads after the first screen.
const ShowPanel = lazy(() => import("../shows/show-panel"));

export function StreamerView() {
  const { user, permissions } = useAuth();
  const store = useProductStore();
  const products = useStreamerProducts(user?.id ?? 0);
  const queryClient = useQueryClient();
  const show = useCurrentShow(user?.id ?? 0);
  const runningShow = show.data ?? null;
  // Each applied tap of a show updates its tally.
  const refreshTally = useCallback(() => void queryClient.invalidateQueries({ queryKey: showKeys.current }), [queryClient]);
  const { tap, last, undoLast } = useQuantityTaps(runningShow?.show.id, runningShow ? refreshTally : undefined);
  const [scannerOpen, setScannerOpen] = useState(false);

  // Fetch the scanner's code while idle, so opening it is instant (its WASM loads on open).
  useEffect(() => {
    const idle = window.requestIdleCallback ?? ((cb: () => void) => window.setTimeout(cb, 1500));
    idle(() => void loadScanner().catch(() => undefined));
  }, []);

  /** A scanned product: disabled ones are refused with the spec's warning. */
  const onScanned = useCallback(
    (product: Product) => {
      if (product.is_active === false) {
        playFeedback("error");
        notify.warning(DISABLED_IN_STREAM);
        return false;
      }
      playFeedback("scan");
      products.select(product);
      return true;
    },
    [products.select],
  );

  const onWedgeScan = useCallback(
    async (code: string) => {
      try {
        const product = await store.lookup(code);
        if (product) onScanned(product);
        else {
          playFeedback("error");
          notify.error(notFoundMessage(code));
        }
      } catch (err) {
        console.error(LOOKUP_FAILED, err);
        notify.error(LOOKUP_FAILED);
      }
    },
    [store, onScanned],
  );
  useWedgeScanner(onWedgeScan, !scannerOpen);

  async function onPickRecent(barcode: string, product: Product) {
    if (product.is_active === false) {
      notify.warning(DISABLED_RECENT);
      products.remove(barcode);
      return;
    }
    products.makeCurrent(barcode);
    // The cached copy may be behind: check it is still usable.
    try {
      const fresh = await products.refresh(barcode);
      if (fresh && fresh.is_active === false) {
        notify.warning(DISABLED_RECENT);
        products.remove(barcode);
      }
    } catch {
      // offline: keep the cached copy
    }
  }

  /** A line of the show's tally: a new opposite tap of its product, in the show. */
  const undoLine = useCallback(
    async (line: ShowLine) => {
      if (line.undo_change === null || line.product_id === null) return;
      try {
        const product = store.get(line.product_id) ?? (await store.lookup(line.barcode));
        if (product) await tap(product, line.undo_change, { undo: true });
      } catch (err) {
        console.error(LOOKUP_FAILED, err);
        notify.error(LOOKUP_FAILED);
      }
    },
    [store, tap],
  );

  const current = products.currentProduct;
  const pending = usePendingDelta(current?.id);
  const pendingTaps = usePendingTaps(current?.id);
  const stock = current ? current.quantity_on_hand + pending : 0;

  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-2xl font-bold">Streamer Interface</h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">Scan products to update inventory during your stream</p>
        </div>
        <FeedbackSwitch />
      </div>

      <Button size="xl" className="w-full" onClick={() => setScannerOpen(true)}>
        <ScanLine aria-hidden="true" className="h-7 w-7" />
        Scan Barcode
      </Button>

      {current ? (
        <CurrentProductCard
          product={current}
          stock={stock}
          canUpdate={permissions.canUpdateQuantity}
          onSold={() => void tap(current, -1)}
          onAdd={() => void tap(current, 1)}
          pendingTaps={pendingTaps}
        >
          <LastTap last={last} onUndo={undoLast} />
        </CurrentProductCard>
      ) : (
        <Card className="p-6 text-center">
          {products.currentLoading ? (
            <Spinner label="Loading product" />
          ) : (
            <>
              <h2 className="text-lg font-bold">No product selected</h2>
              <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
                Scan a barcode (camera or handheld scanner) to pick the product you are selling.
              </p>
            </>
          )}
        </Card>
      )}

      {current ? null : <LastTap last={last} onUndo={undoLast} />}

      <RecentProducts items={products.recentProducts} current={products.current} onPick={(b, p) => void onPickRecent(b, p)} />

      {permissions.canUpdateQuantity && user ? (
        <Suspense fallback={<Spinner label="Loading shows" />}>
          <ShowPanel userId={user.id} current={show.isPending ? undefined : runningShow} onUndoLine={(line) => void undoLine(line)} />
        </Suspense>
      ) : null}

      {scannerOpen ? (
        <Suspense
          fallback={
            <div className="fixed inset-0 z-50 flex items-center justify-center bg-black/60 text-white">
              <Spinner label="Opening scanner" />
            </div>
          }
        >
          <ScannerOverlay
            mode="lookup"
            onClose={() => setScannerOpen(false)}
            onFound={(product) => {
              onScanned(product);
              setScannerOpen(false);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
