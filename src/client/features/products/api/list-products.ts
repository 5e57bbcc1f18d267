import type { Product, ProductsSince } from "../../../../contract/products";
import { CATALOGUE_REVISION_HEADER } from "../../../../contract/rules";
import { apiFetch, apiRequest } from "../../../lib/http";
import { withRetries } from "../../../lib/retry";

const RETRY_DELAYS_MS = [1000, 3000];

export interface ProductList {
  products: Product[];
  /** The catalogue revision the list is complete up to (X-Catalogue-Revision), null when not sent. */
  revision: number | null;
}

/**
 * GET /api/products?catch_up=true: every product, newest first, complete up to the revision it
 * names (the store catches up with ?since= right after). The list (23 MB of JSON at 100,000
 * products) is parsed in slices, so the page keeps painting and taking input meanwhile; the
 * parser loads beside the download, not with the first screen.
 */
export async function listProducts(): Promise<ProductList> {
  const parser = import("../../../lib/json-slices");
  const parse = async (text: string) => (await parser).parseArrayInSlices<Product>(text);
  const { data, headers } = await withRetries(() => apiRequest<Product[]>("/api/products?catch_up=true", { parse }), RETRY_DELAYS_MS);
  const revision = Number(headers.get(CATALOGUE_REVISION_HEADER));
  return { products: data, revision: headers.has(CATALOGUE_REVISION_HEADER) && Number.isSafeInteger(revision) ? revision : null };
}

/** GET /api/products?since=R: every product changed after revision R, and the new watermark. */
export function listProductsSince(revision: number): Promise<ProductsSince> {
  return withRetries(() => apiFetch<ProductsSince>(`/api/products?since=${revision}`), RETRY_DELAYS_MS);
}
