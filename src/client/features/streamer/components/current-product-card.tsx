import { CloudOff, Minus, Plus, TriangleAlert } from "lucide-react";
import { type ReactNode, Suspense } from "react";
import type { Product } from "../../../../contract/products";
import { fewLeft } from "../../../../contract/rules";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { gradeText, setText } from "../../../lib/card-details";
import { MarketPriceLine } from "../../prices";
import { ProductPhotoButton } from "../../products";
import { useMoney } from "../../settings";
import { DISABLED_IN_STREAM } from "../messages";

/** The cover's box on the streamer's current product. */
const STREAM_PHOTO_PX = 240;

interface CurrentProductCardProps {
  product: Product;
  /** Stock shown: the server's plus taps still on their way. */
  stock: number;
  canUpdate: boolean;
  onSold: () => void;
  onAdd: () => void;
  /** Taps of this product waiting for the server (in the stock shown already). */
  pendingTaps?: number;
  /** Under the buttons: the last tap and its Undo. */
  children?: ReactNode;
}

export function CurrentProductCard({ product, stock, canUpdate, onSold, onAdd, pendingTaps = 0, children }: CurrentProductCardProps) {
  const active = product.is_active !== false;
  const low = fewLeft(stock);
  const money = useMoney();
  const grade = gradeText(product);
  const set = setText(product);
  return (
    <Card role="region" className="p-4" aria-labelledby="current-product-title" data-testid="current-product">
      <p className="text-xs font-semibold uppercase tracking-wide text-gray-700 dark:text-gray-300">Current Product</p>
      {product.photos?.[0] ? (
        // The cover large, to hold up to a stream's camera or read off the screen; it opens every photo.
        <div className="mt-2 flex justify-center" data-testid="current-photo">
          <ProductPhotoButton product={product} canManage={false} size={STREAM_PHOTO_PX} full />
        </div>
      ) : null}
      <div className="mt-1 flex items-start justify-between gap-3">
        <h2 id="current-product-title" className="text-xl font-bold leading-tight break-words" data-testid="current-product-name">
          {product.product_name}
        </h2>
        {product.price !== null ? (
          // Read off the screen during a stream: as large as the stock.
          <p className="shrink-0 text-4xl font-extrabold tabular-nums text-green-800 dark:text-green-300" data-testid="current-price">
            <span className="sr-only">Price </span>
            {money(product.price)}
          </p>
        ) : null}
      </div>
      {/* The market price right under it, when a feed prices the product (its code loads on its own). */}
      <Suspense fallback={null}>
        <MarketPriceLine productId={product.id} />
      </Suspense>
      {grade || set ? (
        <p className="mt-1 text-lg font-semibold" data-testid="current-details">
          {[grade, set].filter(Boolean).join(" · ")}
        </p>
      ) : null}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        <dt className="text-gray-700 dark:text-gray-300">Vendor</dt>
        <dd className="font-medium break-words">{product.vendor}</dd>
        <dt className="text-gray-700 dark:text-gray-300">Barcode</dt>
        <dd className="font-mono font-medium break-all">{product.barcode}</dd>
        <dt className="text-gray-700 dark:text-gray-300">Release year</dt>
        <dd className="font-medium">{product.release_year ?? "—"}</dd>
      </dl>
      <div className="mt-3 flex flex-wrap items-center gap-3">
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Stock{" "}
          <span className="text-4xl font-extrabold tabular-nums text-gray-900 dark:text-gray-50" data-testid="current-stock">
            {stock}
          </span>
        </p>
        {stock <= 0 ? (
          <Badge variant="danger">Out of stock</Badge>
        ) : low ? (
          <Badge variant="warning" data-testid="low-stock">
            <TriangleAlert aria-hidden="true" className="h-3.5 w-3.5" />
            Low stock
          </Badge>
        ) : null}
        {active ? null : <Badge variant="danger">Disabled</Badge>}
        {pendingTaps > 0 ? (
          <Badge variant="warning" data-testid="pending-taps" title="Taps that wait for the server: sent in order once it is back">
            <CloudOff aria-hidden="true" className="h-3.5 w-3.5" />
            {pendingTaps} pending
          </Badge>
        ) : null}
      </div>
      {active ? null : (
        <p role="alert" className="mt-2 text-sm font-medium text-red-800 dark:text-red-200">
          {DISABLED_IN_STREAM}
        </p>
      )}
      <div className="mt-4 grid grid-cols-2 gap-3">
        <Button variant="danger" size="tap" onClick={onSold} disabled={!canUpdate || !active || stock <= 0}>
          <Minus aria-hidden="true" className="h-5 w-5 shrink-0" />
          SOLD (-1)
        </Button>
        <Button variant="success" size="tap" onClick={onAdd} disabled={!canUpdate || !active}>
          <Plus aria-hidden="true" className="h-5 w-5 shrink-0" />
          ADD (+1)
        </Button>
      </div>
      {children}
    </Card>
  );
}
