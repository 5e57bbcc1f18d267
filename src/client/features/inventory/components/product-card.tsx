import { CloudOff } from "lucide-react";
import { Fragment, memo } from "react";
import type { Product } from "../../../../contract/products";
import { fewLeft } from "../../../../contract/rules";
import { Badge } from "../../../components/ui/badge";
import { gradeText, setText } from "../../../lib/card-details";
import { cn } from "../../../lib/cn";
import { ageText } from "../../../lib/market-age";
import type { MarketCell } from "../../../lib/market-quotes";
import { ProductPhotoButton, usePendingDelta, usePendingTaps } from "../../products";
import { useSwipe } from "../hooks/use-swipe";
import { type SwipeAction, swipeEnabled } from "../swipe";
import { type ProductActionHandlers, ProductActions } from "./product-actions";
import { QuantityStepper } from "./quantity-stepper";

export interface ProductCardProps extends ProductActionHandlers {
  product: Product;
  canManageProducts: boolean;
  /** A status change of this product is in flight. */
  statusBusy?: boolean;
  /** Render only the action buttons or only the menu (the grid knows the width); both when not given, CSS shows one. */
  actionsOnly?: "inline" | "menu";
  /** Cents in the shop's currency (useMoney, once for all the cards). */
  money: (cents: number | null) => string;
  /** The product's latest market price (asked for the cards in view) and the shop's today for its age; shown when there is one. */
  market?: MarketCell;
  today?: string;
}

/** The cover's box on a card: fixed, so a card is as tall before its photo loads as after. */
const CARD_PHOTO_PX = 64;

/** One product: details, quantity -/+ (click or hold), Edit and Disable/Enable, swipe gestures. */
export const ProductCard = /* @__PURE__ */ memo(function ProductCard({
  product,
  canManageProducts,
  onEdit,
  onToggleStatus,
  onHistory,
  onAdjust,
  statusBusy,
  actionsOnly,
  money,
  market,
  today,
}: ProductCardProps) {
  const active = product.is_active !== false;
  // The badge follows the stock shown (with this tab's changes in flight).
  const shown = product.quantity_on_hand + usePendingDelta(product.id);
  // Its quantity changes not applied yet (as the streamer's taps: they wait while the server is away).
  const pending = usePendingTaps(product.id);
  const swipe = useSwipe(
    swipeEnabled(canManageProducts, active),
    (action: SwipeAction) => {
      if (action === "edit") onEdit(product);
      else onToggleStatus(product);
    },
    product.id,
  );
  const toggleLabel = active ? "Disable" : "Enable";

  return (
    <article
      data-testid="product-card"
      data-barcode={product.barcode}
      data-product-id={product.id}
      aria-label={product.product_name}
      className="relative h-full overflow-hidden rounded-xl"
    >
      {swipe.hint ? (
        <div
          aria-hidden="true"
          className={cn(
            "absolute inset-0 flex items-center px-4 text-sm font-bold",
            swipe.hint === "edit" ? "justify-start bg-blue-700 text-white" : "justify-end bg-red-700 text-white",
          )}
        >
          {swipe.hint === "edit" ? "Edit" : toggleLabel}
        </div>
      ) : null}
      <div
        {...swipe.handlers}
        data-testid="product-card-body"
        style={swipe.offset ? { transform: `translateX(${swipe.offset}px)` } : undefined}
        className={cn(
          "relative flex h-full flex-col gap-2 rounded-xl border bg-white p-3 sm:p-4 text-gray-900 shadow-sm dark:bg-gray-900 dark:text-gray-50",
          active
            ? "border-gray-200 dark:border-gray-700"
            : "border-dashed border-gray-400 bg-gray-100 text-gray-800 dark:border-gray-500 dark:bg-gray-800 dark:text-gray-200",
          swipe.dragging ? "select-none" : "transition-transform",
          canManageProducts && active ? "touch-pan-y" : "",
        )}
      >
        <div className="flex items-start justify-between gap-2">
          <h2 className="min-w-0 break-words text-base font-bold leading-tight">{product.product_name}</h2>
          <div className="flex shrink-0 flex-wrap justify-end gap-1">
            {active ? null : <Badge variant="neutral">Disabled</Badge>}
            {pending > 0 ? (
              <Badge
                variant="warning"
                data-testid="pending-taps"
                title="Quantity changes that wait for the server: sent in order once it is back"
              >
                <CloudOff aria-hidden="true" className="h-3.5 w-3.5" />
                {pending} pending
              </Badge>
            ) : null}
            {fewLeft(shown) ? <Badge variant={shown <= 0 ? "danger" : "warning"}>{shown <= 0 ? "Out of stock" : "Low stock"}</Badge> : null}
          </div>
        </div>
        {/* The cover beside the details: as tall as their three lines, so the card keeps its height. */}
        <div className="flex items-start gap-3">
          <dl className="grid min-w-0 flex-1 grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
            <dt className="text-gray-700 dark:text-gray-300">Vendor</dt>
            <dd className="min-w-0 break-words">{product.vendor}</dd>
            <dt className="text-gray-700 dark:text-gray-300">Barcode</dt>
            <dd className="min-w-0 break-all font-mono">{product.barcode}</dd>
            <dt className="text-gray-700 dark:text-gray-300">Release Year</dt>
            <dd>{product.release_year ?? "—"}</dd>
            <CardDetails product={product} money={money} />
            {market && market !== "failed" && today ? (
              <>
                <dt className="text-gray-700 dark:text-gray-300">Market</dt>
                <dd className="min-w-0 break-words" data-testid="card-market">
                  {money(market.market)}{" "}
                  <span className="text-gray-700 dark:text-gray-300">
                    · seen <time dateTime={market.checked_on}>{ageText(market.checked_on, today)}</time>
                  </span>
                </dd>
              </>
            ) : null}
          </dl>
          <ProductPhotoButton product={product} canManage={canManageProducts} size={CARD_PHOTO_PX} />
        </div>
        <div className="mt-auto flex items-center justify-between gap-2">
          {/* A card is reused for the product at its place (ProductGrid): the stepper and the photo button follow it. */}
          <QuantityStepper product={product} />
          <ProductActions
            key={actionsOnly === "inline" ? undefined : product.id}
            product={product}
            canManageProducts={canManageProducts}
            statusBusy={statusBusy}
            only={actionsOnly}
            onEdit={onEdit}
            onToggleStatus={onToggleStatus}
            onHistory={onHistory}
            onAdjust={onAdjust}
          />
        </div>
      </div>
    </article>
  );
});

/** The card details that are set: price, grade or condition, set and number, location. */
function CardDetails({ product, money }: { product: Product; money: (cents: number | null) => string }) {
  const rows: Array<[string, string]> = [
    ["Price", money(product.price)],
    [product.grader ? "Grade" : "Condition", gradeText(product)],
    ["Set", setText(product)],
    ["Location", product.location ?? ""],
  ];
  return rows
    .filter(([, value]) => value !== "")
    .map(([label, value]) => (
      <Fragment key={label}>
        <dt className="text-gray-700 dark:text-gray-300">{label}</dt>
        <dd className={cn("min-w-0 break-words", label === "Price" && "font-semibold")} data-testid={`card-${label.toLowerCase()}`}>
          {value}
        </dd>
      </Fragment>
    ));
}
