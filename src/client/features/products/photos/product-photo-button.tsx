import { lazy, Suspense, useState } from "react";
import type { Product } from "../../../../contract/products";
import { cn } from "../../../lib/cn";
import { useProduct } from "../store/product-store-provider";
import { PhotoThumb } from "./photo-thumb";

// The viewer (and the editor in it) loads when first opened, not with every screen that shows a thumbnail.
const ProductPhotosDialog = lazy(() => import("./product-photos-dialog").then((m) => ({ default: m.ProductPhotosDialog })));

export interface ProductPhotoButtonProps {
  product: Product;
  canManage: boolean;
  /** The box's side in CSS pixels. */
  size: number;
  /** Show the full photo (a large box) rather than the thumbnail. */
  full?: boolean;
  className?: string;
}

/**
 * A product's cover in a fixed-size box, as a button that opens the viewer (Enter or a click);
 * for someone who may manage photos, a product without any opens it to add some. Without photos
 * and that permission, just the empty box.
 */
export function ProductPhotoButton({ product, canManage, size, full = false, className }: ProductPhotoButtonProps) {
  // The product whose viewer is open: a table row or card given another product keeps its button, not the viewer.
  const [openFor, setOpenFor] = useState<number | null>(null);
  const open = openFor === product.id;
  const photos = product.photos ?? [];
  const cover = photos[0];
  if (!cover && !canManage) return <PhotoThumb photo={undefined} size={size} alt="" className={className} />;
  const label = cover
    ? `View ${photos.length === 1 ? "the photo" : `${photos.length} photos`} of ${product.product_name}`
    : `Add photos of ${product.product_name}`;
  return (
    <>
      <button
        type="button"
        onClick={() => setOpenFor(product.id)}
        aria-label={label}
        title={label}
        data-testid="photo-button"
        className={cn(
          "shrink-0 rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400",
          className,
        )}
      >
        <PhotoThumb photo={cover} size={size} alt="" full={full} />
      </button>
      {open ? (
        <Suspense fallback={null}>
          <ProductPhotosDialog productId={product.id} canManage={canManage} onClose={() => setOpenFor(null)} />
        </Suspense>
      ) : null}
    </>
  );
}

/** The cover of a product in the store (audit entries, a show's tally): an empty box when it has none or is not loaded. */
export function ProductCover({ productId, size }: { productId: number | null; size: number }) {
  const product = useProduct(productId ?? -1);
  return <PhotoThumb photo={product?.photos?.[0]} size={size} alt="" />;
}
