import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";

/** DELETE /api/products/{id}/photos/{photo}: the product without it. */
export function removePhoto(productId: number, photoId: number): Promise<{ product: Product }> {
  return apiFetch<{ product: Product }>(`/api/products/${productId}/photos/${photoId}`, { method: "DELETE" });
}
