import type { Photo } from "../../../../contract/photos";
import { PHOTO_FIELD } from "../../../../contract/photos";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";

/** A phone's photo over a shop's Wi-Fi may take a while: longer than a JSON call's 10 s. */
export const PHOTO_UPLOAD_TIMEOUT_MS = 120_000;

/**
 * POST /api/products/{id}/photos: the file as multipart/form-data (fetch sets the boundary),
 * through apiFetch like every call (its errors, its 401 handler). The stored photo and the
 * product listing it.
 */
export function addPhoto(productId: number, file: Blob, fileName = "photo"): Promise<{ photo: Photo; product: Product }> {
  const body = new FormData();
  body.append(PHOTO_FIELD, file, fileName);
  return apiFetch(`/api/products/${productId}/photos`, { method: "POST", body, timeoutMs: PHOTO_UPLOAD_TIMEOUT_MS });
}
