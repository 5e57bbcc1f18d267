import { measureElement, useWindowVirtualizer, type Virtualizer } from "@tanstack/react-virtual";
import { memo, useLayoutEffect, useMemo, useRef, useState } from "react";
import { MARKET_QUOTES_PAGE, type MarketCell, useMarketQuotes } from "../../../lib/market-quotes";
import { atLeast, useScreenLevel } from "../../../lib/use-screen";
import { useProduct } from "../../products";
import { todayIn } from "../../reports";
import { useMoney, useSettings } from "../../settings";
import type { RowIndex } from "../row-index";
import type { ProductActionHandlers } from "./product-actions";
import { ProductCard } from "./product-card";

/** Columns for a grid width: one card per ~300 px, 1 to 4 (responsive). */
export function columnsFor(width: number): number {
  if (width >= 1100) return 4;
  if (width >= 820) return 3;
  if (width >= 540) return 2;
  return 1;
}

/** About a card's height with its photo box (measured rows replace it): close, so the page barely grows as rows are measured. */
const ROW_ESTIMATE_PX = 256;
const GAP_PX = 16;

/**
 * A row's height without forcing a layout: the ResizeObserver's entry (it reports each row after
 * a layout), else the height measured before, else the estimate until the observer reports.
 */
function measureRow(el: Element, entry: ResizeObserverEntry | undefined, instance: Virtualizer<Window, Element>): number {
  if (entry) return measureElement(el, entry, instance);
  return instance.itemSizeCache.get(instance.options.getItemKey(instance.indexFromElement(el))) ?? ROW_ESTIMATE_PX + GAP_PX;
}

export interface ProductGridProps extends ProductActionHandlers {
  /** The products shown (catalogue slots, in order) and the index they come from. */
  rows: Int32Array;
  index: RowIndex;
  canManageProducts: boolean;
  busyIds: ReadonlySet<number>;
}

/**
 * Only the rows in view are in the DOM (window scrolling), so 100,000 products stay fast.
 * Live changes keep the same rows and the window's scroll, so the position is kept; each card
 * reads its product from the store, so a change re-renders that one card.
 */
export const ProductGrid = memo(function ProductGrid({ rows: shown, index, canManageProducts, busyIds, ...actions }: ProductGridProps) {
  const ref = useRef<HTMLDivElement>(null);
  // Until the observer's first report (right after the first layout; none is forced to measure
  // sooner): the window's width for the columns, margin 0 (a few more rows than in view).
  const [columns, setColumns] = useState(() => columnsFor(window.innerWidth));
  const [margin, setMargin] = useState(0);

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => {
      setColumns(columnsFor(el.clientWidth));
      setMargin(el.getBoundingClientRect().top + window.scrollY);
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const rowCount = Math.ceil(shown.length / columns);
  const actionsOnly = atLeast(useScreenLevel(), "sm") ? "inline" : "menu";
  // Once for the grid, not a settings query per card.
  const money = useMoney();
  const virtualizer = useWindowVirtualizer({
    count: rowCount,
    estimateSize: () => ROW_ESTIMATE_PX + GAP_PX,
    // One card row beyond the view each side: each keystroke mounts the cards in view anew (a row of
    // up to 4 cards is 272 px; more rows cost every keystroke more than they save a scroll).
    overscan: 1,
    scrollMargin: margin,
    measureElement: measureRow,
  });
  const rows = virtualizer.getVirtualItems();

  // The market prices of the cards in view, asked for a page of cards at a time (cached per page).
  const firstPage = Math.floor(((rows[0]?.index ?? 0) * columns) / MARKET_QUOTES_PAGE);
  const lastPage = Math.floor(Math.max(0, ((rows.at(-1)?.index ?? 0) + 1) * columns - 1) / MARKET_QUOTES_PAGE);
  const marketPages = useMemo(() => {
    const pages: number[][] = [];
    for (let page = firstPage; page <= lastPage; page++) {
      const ids: number[] = [];
      for (let at = page * MARKET_QUOTES_PAGE; at < Math.min(shown.length, (page + 1) * MARKET_QUOTES_PAGE); at++) {
        const product = index.productAt(shown, at);
        if (product) ids.push(product.id);
      }
      if (ids.length > 0) pages.push(ids);
    }
    return pages;
  }, [shown, index, firstPage, lastPage]);
  const marketOf = useMarketQuotes(marketPages);
  const { timezone } = useSettings();
  // The shop's day for the prices' age: read again when answers come, not in every render (a scroll renders each frame).
  // biome-ignore lint/correctness/useExhaustiveDependencies: `marketOf` changes with each answer, when today is read again
  const today = useMemo(() => todayIn(timezone), [timezone, marketOf]);

  return (
    <div ref={ref} data-testid="product-grid" className="relative w-full" style={{ height: virtualizer.getTotalSize() }}>
      {rows.map((row) => {
        const start = row.index * columns;
        // Cards keyed by their place: a keystroke gives the places in view other products, and a
        // card updates its text instead of being built again (what holds state for its product
        // follows it: a held stepper press, the photo viewer, a swipe; the actions menu is keyed by it).
        const items: Array<[number, number]> = [];
        for (let i = start; i < Math.min(shown.length, start + columns); i++) {
          const product = index.productAt(shown, i);
          if (product) items.push([i, product.id]);
        }
        return (
          <div
            key={row.key}
            data-index={row.index}
            ref={virtualizer.measureElement}
            className="absolute left-0 top-0 grid w-full gap-4"
            style={{
              transform: `translateY(${row.start - virtualizer.options.scrollMargin}px)`,
              gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
              paddingBottom: GAP_PX,
            }}
          >
            {items.map(([at, id]) => (
              <GridCard
                key={at}
                id={id}
                canManageProducts={canManageProducts}
                {...actions}
                statusBusy={busyIds.has(id)}
                actionsOnly={actionsOnly}
                money={money}
                market={marketOf(id)}
                today={today}
              />
            ))}
          </div>
        );
      })}
    </div>
  );
});

interface GridCardProps extends ProductActionHandlers {
  id: number;
  canManageProducts: boolean;
  statusBusy: boolean;
  actionsOnly: "inline" | "menu";
  money: (cents: number | null) => string;
  market: MarketCell;
  today: string;
}

/** A card that reads its product from the store: a change of that product re-renders this card alone. */
const GridCard = memo(function GridCard({ id, ...props }: GridCardProps) {
  const product = useProduct(id);
  return product ? <ProductCard product={product} {...props} /> : null;
});
