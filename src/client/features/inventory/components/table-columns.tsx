import type { ReactNode } from "react";
import type { Product } from "../../../../contract/products";
import { atOrUnderReorderPoint } from "../../../../contract/report-rules";
import { fewLeft } from "../../../../contract/rules";
import { Badge } from "../../../components/ui/badge";
import { gradeText } from "../../../lib/card-details";
import type { MarketCell } from "../../../lib/market-quotes";
import type { Breakpoint } from "../../../lib/use-screen";
import { ProductPhotoButton } from "../../products";
import type { SortValue } from "../row-index";
import { MarketText } from "./market-cell";
import { QuantityStepper } from "./quantity-stepper";

/** The cover's box in a row: fixed, inside the row's fixed height. */
const TABLE_PHOTO_PX = 40;

/** What a cell may use besides its product. */
export interface CellContext {
  canManageProducts: boolean;
  /** Cents in the shop's currency. */
  money: (cents: number | null) => string;
  selected: boolean;
  onToggleSelected: (id: number) => void;
  /** The row's actions (ProductActions), made by the table. */
  actions: ReactNode;
  /** The product's latest market price (asked for the rows in view), and the shop's today for its age. */
  market: MarketCell;
  today: string;
  /** Narrow screens have no Market column: the price cell shows it under the price. */
  marketUnderPrice: boolean;
}

/**
 * One column of the inventory table: everything about it in one place. A new column is one more
 * entry in `productColumns` (and, when the sort is to be remembered, its id in view-prefs.ts).
 */
export interface ProductColumn {
  id: string;
  label: string;
  /** Shown from this screen width up (narrow screens keep name, quantity and actions); not rendered below it. */
  from?: Breakpoint;
  /** Width. */
  className: string;
  /**
   * Sortable by this value: text compared as given (give it lower-cased), numbers as numbers,
   * null after every value either way; ties keep the catalogue's order (newest first). The value
   * is taken once per product when the column is sorted, and again only for a changed product.
   */
  sortValue?: (p: Product) => SortValue;
  /** The first click sorts from the highest (the default: from the lowest). */
  sortDescFirst?: boolean;
  /** Only for those who may manage products (selection for labels). */
  managersOnly?: boolean;
  /** Header label for screen readers only. */
  hiddenLabel?: boolean;
  /**
   * A cell's state (if any) belongs to its product: a row shows another product after a keystroke,
   * so key it by `p.id` or make it follow the product (as the stepper and the photo button do).
   */
  cell: (p: Product, ctx: CellContext) => ReactNode;
}

const UPDATED = new Intl.DateTimeFormat("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });
export const formatUpdated = (iso: string) => UPDATED.format(new Date(iso));

/** A column's cells and header show from its breakpoint up (CSS, also where the table cannot tell the width). */
export const SHOWN_FROM: Record<Breakpoint, string> = {
  sm: "hidden sm:flex",
  md: "hidden md:flex",
  lg: "hidden lg:flex",
  laptop: "hidden laptop:flex",
  page: "hidden page:flex",
};

/** Lower-cased text, the same string object for the same text (a vendor's name is not copied 20,000 times). */
function lowerOnce(): (text: string | null) => string | null {
  const seen = new Map<string, string>();
  return (text) => {
    if (text === null) return null;
    let lower = seen.get(text);
    if (lower === undefined) {
      lower = text.toLowerCase();
      if (seen.size < 10_000) seen.set(text, lower);
    }
    return lower;
  };
}
const lowerVendor = lowerOnce();
const lowerGrade = lowerOnce();
const lowerLocation = lowerOnce();

function StatusBadge({ p }: { p: Product }) {
  if (p.is_active === false) return <Badge variant="neutral">Disabled</Badge>;
  if (fewLeft(p.quantity_on_hand)) {
    return <Badge variant={p.quantity_on_hand <= 0 ? "danger" : "warning"}>{p.quantity_on_hand <= 0 ? "Out of stock" : "Low stock"}</Badge>;
  }
  return <Badge variant="success">Active</Badge>;
}

/**
 * The table's columns. Price shows everywhere (with the market price under it below `md`, where
 * the Market column starts); condition/grade and location from `laptop` screens
 * (1400 px), the time of the last change from `page` (1680 px). The name takes what is left and
 * wraps to two lines; the actions are icons below `page` widths, so at 1280-1440 px a whole
 * product name shows.
 */
export const productColumns: ProductColumn[] = [
  {
    id: "select",
    label: "Select",
    className: "w-10 shrink-0 justify-center",
    managersOnly: true,
    cell: (p, ctx) => (
      <input
        type="checkbox"
        className="size-4"
        aria-label={`Select ${p.product_name}`}
        checked={ctx.selected}
        onChange={() => ctx.onToggleSelected(p.id)}
      />
    ),
  },
  {
    // The cover in a fixed 40-pixel box: opens the viewer (for managers, the photos to change).
    id: "photo",
    label: "Photo",
    className: "w-14 shrink-0 justify-center",
    cell: (p, ctx) => <ProductPhotoButton product={p} canManage={ctx.canManageProducts} size={TABLE_PHOTO_PX} />,
  },
  {
    id: "product_name",
    label: "Name",
    className: "min-w-32 flex-[3]",
    sortValue: (p) => p.product_name.toLowerCase(),
    cell: (p) => (
      <span className="line-clamp-2 break-words font-semibold leading-tight" data-testid="product-name" title={p.product_name}>
        {p.product_name}
      </span>
    ),
  },
  {
    id: "vendor",
    label: "Vendor",
    from: "md",
    className: "min-w-20 flex-[1]",
    sortValue: (p) => lowerVendor(p.vendor),
    cell: (p) => <span className="line-clamp-2 break-words leading-tight">{p.vendor}</span>,
  },
  {
    id: "barcode",
    label: "Barcode",
    from: "lg",
    className: "w-32 shrink-0",
    sortValue: (p) => p.barcode.toLowerCase(),
    cell: (p) => <span className="truncate font-mono text-xs">{p.barcode}</span>,
  },
  {
    id: "release_year",
    label: "Year",
    from: "sm",
    className: "w-16 shrink-0",
    sortValue: (p) => p.release_year,
    sortDescFirst: true,
    cell: (p) => p.release_year ?? "—",
  },
  {
    id: "quantity_on_hand",
    label: "Quantity",
    className: "w-36 shrink-0",
    sortValue: (p) => p.quantity_on_hand,
    // Not keyed by product (a keystroke would build each row's stepper again): a held press stays with its product (usePressRepeat).
    cell: (p) => <QuantityStepper product={p} size="sm" />,
  },
  {
    id: "price",
    label: "Price",
    className: "w-20 shrink-0 justify-end",
    sortValue: (p) => p.price,
    cell: (p, ctx) =>
      ctx.marketUnderPrice ? (
        <span className="flex min-w-0 flex-col items-end leading-tight">
          <span className="tabular-nums">{p.price === null ? "—" : ctx.money(p.price)}</span>
          <MarketText market={ctx.market} money={ctx.money} today={ctx.today} compact />
        </span>
      ) : (
        <span className="tabular-nums">{p.price === null ? "—" : ctx.money(p.price)}</span>
      ),
  },
  {
    // Beside the price: the latest market price and its age. Not in the catalogue (decision 0013):
    // asked for the rows in view only, so it is not sortable.
    id: "market",
    label: "Market",
    from: "md",
    className: "w-24 shrink-0 justify-end",
    cell: (_p, ctx) => <MarketText market={ctx.market} money={ctx.money} today={ctx.today} />,
  },
  {
    id: "grade",
    label: "Condition",
    from: "laptop",
    className: "w-28 shrink-0",
    sortValue: (p) => lowerGrade(gradeText(p)),
    cell: (p) => <span className="truncate">{gradeText(p) || "—"}</span>,
  },
  {
    id: "location",
    label: "Location",
    from: "laptop",
    className: "w-28 shrink-0",
    sortValue: (p) => lowerLocation(p.location),
    cell: (p) => <span className="truncate">{p.location ?? "—"}</span>,
  },
  {
    // The reorder point: stock at or under it is flagged (the Reports view lists those products "To reorder").
    id: "reorder_point",
    label: "Reorder at",
    from: "page",
    className: "w-20 shrink-0 justify-end",
    sortValue: (p) => p.reorder_point ?? null,
    cell: (p) => {
      const point = p.reorder_point;
      if (point === null || point === undefined) return "—";
      const low = atOrUnderReorderPoint(p.quantity_on_hand, point);
      return <span className={low ? "font-semibold tabular-nums text-[var(--warning-text)]" : "tabular-nums"}>{point}</span>;
    },
  },
  {
    id: "is_active",
    label: "Status",
    from: "sm",
    className: "w-24 shrink-0",
    sortValue: (p) => (p.is_active !== false ? 1 : 0),
    sortDescFirst: true,
    cell: (p) => <StatusBadge p={p} />,
  },
  {
    id: "updated_at",
    label: "Updated",
    from: "page",
    className: "w-44 shrink-0",
    sortValue: (p) => p.updated_at,
    cell: (p) => <time dateTime={p.updated_at}>{formatUpdated(p.updated_at)}</time>,
  },
  {
    id: "actions",
    label: "Actions",
    className: "w-14 shrink-0 justify-end lg:w-40 page:w-72",
    hiddenLabel: true,
    cell: (_p, ctx) => ctx.actions,
  },
];

export const columnById = new Map(productColumns.map((c) => [c.id, c]));
