import type { Product } from "../../../../contract/products";
import { ApiError, apiFetch } from "../../../lib/http";

/** GET /api/products/barcode/{barcode}: the product, or null when there is none (404). */
export async function lookupBarcode(barcode: string, signal?: AbortSignal): Promise<Product | null> {
  try {
    return await apiFetch<Product>(`/api/products/barcode/${encodeURIComponent(barcode)}`, { signal });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || /not found/i.test(err.message))) return null;
    throw err;
  }
}
