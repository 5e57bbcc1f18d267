import type { PhotoOrderBody } from "../../../../contract/photos";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";

/** PUT /api/products/{id}/photos `{order}`: the product with its photos in that order (the first is the cover). */
export function reorderPhotos(productId: number, body: PhotoOrderBody): Promise<{ product: Product }> {
  return apiFetch<{ product: Product }>(`/api/products/${productId}/photos`, { method: "PUT", body });
}
