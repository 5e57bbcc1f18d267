import type { Photo } from "../../../../contract/photos";
import { PHOTO_FIELD } from "../../../../contract/photos";
import type { Product } from "../../../../contract/products";
import { ApiError, messageFromBody, NETWORK_ERROR_MESSAGE, normaliseError, TIMEOUT_ERROR_MESSAGE } from "../../../lib/http";

/** A phone's photo over a shop's Wi-Fi may take a while: longer than a JSON call's 10 s. */
export const PHOTO_UPLOAD_TIMEOUT_MS = 120_000;

/**
 * POST /api/products/{id}/photos: the file as multipart/form-data (the browser sets the
 * boundary), cookies sent. The stored photo and the product listing it.
 */
export async function addPhoto(productId: number, file: Blob, fileName = "photo"): Promise<{ photo: Photo; product: Product }> {
  const body = new FormData();
  body.append(PHOTO_FIELD, file, fileName);
  const timeout = AbortSignal.timeout(PHOTO_UPLOAD_TIMEOUT_MS);
  let response: Response;
  let text: string;
  try {
    response = await fetch(`/api/products/${productId}/photos`, {
      method: "POST",
      credentials: "include",
      headers: { Accept: "application/json" },
      body,
      signal: timeout,
    });
    text = await response.text();
  } catch (err) {
    if (timeout.aborted) throw new ApiError(TIMEOUT_ERROR_MESSAGE, { timeout: true });
    const error = normaliseError(err);
    throw error.isNetworkError ? new ApiError(NETWORK_ERROR_MESSAGE, { network: true }) : error;
  }
  let data: unknown = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = text;
  }
  if (!response.ok) throw new ApiError(messageFromBody(data, response.status), { status: response.status, data });
  return data as { photo: Photo; product: Product };
}
