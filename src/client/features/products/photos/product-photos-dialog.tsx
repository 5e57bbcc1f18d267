import { useState } from "react";
import { Dialog } from "../../../components/ui/dialog";
import { useProduct } from "../store/product-store-provider";
import { PhotoEditor } from "./photo-editor";
import { PhotoStage } from "./photo-stage";

export interface ProductPhotosDialogProps {
  productId: number;
  /** May add, move and remove photos (managers and inventory users). */
  canManage: boolean;
  /** The photo shown first. */
  start?: number;
  onClose: () => void;
}

/**
 * The viewer: a product's photos large, one at a time (arrow keys or Previous and Next), from the
 * live product, so a change made meanwhile shows at once. Escape closes it. With `canManage`, the
 * photos can be changed below.
 */
export function ProductPhotosDialog({ productId, canManage, start = 0, onClose }: ProductPhotosDialogProps) {
  const product = useProduct(productId);
  const [index, setIndex] = useState(start);
  if (!product) return null;
  const photos = product.photos ?? [];
  return (
    <Dialog onClose={onClose} title={`Photos of ${product.product_name}`} size="lg" focusFirstField={false}>
      <div className="flex flex-col gap-4" data-testid="photo-viewer">
        {photos.length > 0 || !canManage ? (
          <PhotoStage
            photos={photos}
            index={Math.min(index, Math.max(0, photos.length - 1))}
            onIndex={setIndex}
            name={product.product_name}
          />
        ) : null}
        {canManage ? <PhotoEditor product={product} onView={setIndex} /> : null}
      </div>
    </Dialog>
  );
}
