import { createColumnHelper, type SortingFn } from "@tanstack/react-table";
import type { Product } from "../../../../contract/products";
import { Badge } from "../../../components/ui/badge";
import { gradeText } from "../../../lib/card-details";
import { useMoney } from "../../settings";
import { isLowStock } from "./product-card";
import { QuantityStepper } from "./quantity-stepper";

const column = createColumnHelper<Product>();

/** Lower-cased text per product and field, computed once per product object (sorting 100,000 rows compares often). */
const lowered = new WeakMap<Product, Map<string, string>>();
function lower(p: Product, field: "product_name" | "vendor" | "barcode"): string {
  let m = lowered.get(p);
  if (!m) {
    m = new Map();
    lowered.set(p, m);
  }
  let v = m.get(field);
  if (v === undefined) {
    v = p[field].toLowerCase();
    m.set(field, v);
  }
  return v;
}

const byText =
  (field: "product_name" | "vendor" | "barcode"): SortingFn<Product> =>
  (a, b) => {
    const x = lower(a.original, field);
    const y = lower(b.original, field);
    return x < y ? -1 : x > y ? 1 : 0;
  };

export const formatUpdated = (iso: string) =>
  new Date(iso).toLocaleString("en-US", { month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" });

/**
 * Column widths and the screens they show on (narrow screens keep name, quantity and actions).
 * Price shows everywhere; condition/grade and location from `laptop` screens (1400 px), the time
 * of the last change from `page` (1680 px, the page's widest), where the name still has room.
 */
export const COLUMN_CLASS: Record<string, string> = {
  select: "w-10 shrink-0 justify-center",
  photo: "w-14 shrink-0 justify-center",
  product_name: "min-w-32 flex-[3]",
  vendor: "hidden min-w-0 flex-[2] md:flex",
  barcode: "hidden w-40 shrink-0 lg:flex",
  release_year: "hidden w-16 shrink-0 sm:flex",
  quantity_on_hand: "w-36 shrink-0",
  price: "w-20 shrink-0 justify-end",
  grade: "hidden w-28 shrink-0 laptop:flex",
  location: "hidden w-28 shrink-0 laptop:flex",
  reorder_point: "hidden w-20 shrink-0 justify-end laptop:flex",
  is_active: "hidden w-24 shrink-0 sm:flex",
  updated_at: "hidden w-44 shrink-0 page:flex",
  actions: "w-14 shrink-0 justify-end lg:w-72",
};

export const COLUMN_LABELS: Record<string, string> = {
  select: "Select",
  photo: "Photo",
  product_name: "Name",
  vendor: "Vendor",
  barcode: "Barcode",
  release_year: "Year",
  quantity_on_hand: "Quantity",
  price: "Price",
  grade: "Condition",
  location: "Location",
  reorder_point: "Reorder at",
  is_active: "Status",
  updated_at: "Updated",
  actions: "Actions",
};

function Price({ cents }: { cents: number | null }) {
  const money = useMoney();
  return <span className="tabular-nums">{cents === null ? "—" : money(cents)}</span>;
}

/** The table's columns; sorting by the library's row models, with text compared case-insensitively. */
export const productColumns = [
  column.display({
    id: "select",
    enableSorting: false,
    cell: (c) => (
      <input
        type="checkbox"
        className="size-4"
        aria-label={`Select ${c.row.original.product_name}`}
        checked={c.row.getIsSelected()}
        onChange={c.row.getToggleSelectedHandler()}
      />
    ),
  }),
  // The cover in a fixed 40-pixel box; the row renders it (it opens the viewer, for managers the photos to change).
  column.display({ id: "photo", enableSorting: false }),
  column.accessor("product_name", {
    sortingFn: byText("product_name"),
    cell: (c) => (
      <span className="truncate font-semibold" data-testid="product-name">
        {c.getValue()}
      </span>
    ),
  }),
  column.accessor("vendor", { sortingFn: byText("vendor"), cell: (c) => <span className="truncate">{c.getValue()}</span> }),
  column.accessor("barcode", {
    sortingFn: byText("barcode"),
    cell: (c) => <span className="truncate font-mono text-xs">{c.getValue()}</span>,
  }),
  column.accessor("release_year", { sortingFn: "basic", sortUndefined: "last", cell: (c) => c.getValue() ?? "—" }),
  column.accessor("quantity_on_hand", {
    sortingFn: "basic",
    sortDescFirst: false,
    cell: (c) => <QuantityStepper product={c.row.original} size="sm" />,
  }),
  // Products without a price (undefined to the sort) come after the priced ones, either way.
  column.accessor((p) => p.price ?? undefined, {
    id: "price",
    sortingFn: "basic",
    sortDescFirst: false,
    sortUndefined: "last",
    cell: (c) => <Price cents={c.row.original.price} />,
  }),
  column.accessor((p) => gradeText(p), {
    id: "grade",
    sortingFn: "text",
    cell: (c) => <span className="truncate">{c.getValue() || "—"}</span>,
  }),
  column.accessor((p) => p.location ?? undefined, {
    id: "location",
    sortingFn: "text",
    sortUndefined: "last",
    cell: (c) => <span className="truncate">{c.getValue() ?? "—"}</span>,
  }),
  // The reorder point: stock at or under it is flagged (the Reports view lists those products "To reorder").
  column.accessor((p) => p.reorder_point ?? undefined, {
    id: "reorder_point",
    sortingFn: "basic",
    sortUndefined: "last",
    cell: (c) => {
      const point = c.row.original.reorder_point;
      if (point === null || point === undefined) return "—";
      const low = c.row.original.quantity_on_hand <= point;
      return <span className={low ? "font-semibold tabular-nums text-[var(--warning-text)]" : "tabular-nums"}>{point}</span>;
    },
  }),
  column.accessor((p) => p.is_active !== false, {
    id: "is_active",
    sortingFn: "basic",
    cell: (c) => {
      const p = c.row.original;
      if (p.is_active === false) return <Badge variant="neutral">Disabled</Badge>;
      if (isLowStock(p.quantity_on_hand)) {
        return (
          <Badge variant={p.quantity_on_hand <= 0 ? "danger" : "warning"}>{p.quantity_on_hand <= 0 ? "Out of stock" : "Low stock"}</Badge>
        );
      }
      return <Badge variant="success">Active</Badge>;
    },
  }),
  column.accessor("updated_at", {
    sortingFn: "basic",
    cell: (c) => <time dateTime={c.getValue()}>{formatUpdated(c.getValue())}</time>,
  }),
  column.display({ id: "actions", enableSorting: false }),
];
