import type { Product, ProductsSince } from "../../../../contract/products";
import { CATALOGUE_REVISION_HEADER, HTTP_TIMEOUT_MS } from "../../../../contract/rules";
import { EARLY_PATHS, takeEarlyCatalogue } from "../../../lib/early-requests";
import { apiFetch, apiRequest } from "../../../lib/http";
import { withRetries } from "../../../lib/retry";

const RETRY_DELAYS_MS = [1000, 3000];

export interface ProductList {
  products: Product[];
  /** The catalogue revision the list is complete up to (X-Catalogue-Revision), null when not sent. */
  revision: number | null;
}

/**
 * GET /api/products?limit=FIRST_PAGE_PRODUCTS: the list's first products, to show while the whole
 * list downloads (the early script's answer when it asked). Not retried: the whole list follows anyway.
 */
export function listFirstProducts(): Promise<Product[]> {
  return apiFetch<Product[]>(EARLY_PATHS.firstPage, { early: true });
}

const revisionOf = (value: string | null): number | null => {
  const revision = Number(value);
  return value !== null && Number.isSafeInteger(revision) ? revision : null;
};

/**
 * GET /api/products?catch_up=true: every product, newest first, complete up to the revision it
 * names (the store catches up with ?since= right after). The list (tens of megabytes of JSON
 * at 100,000 products) is parsed in slices as it downloads, so the page keeps painting and taking input
 * meanwhile; the parser loads beside the download, not with the first screen. When the page asked for it before
 * the app loaded (the early script, for `userId`), that list is taken if it came; anything
 * else (an error status, a network failure, a body that does not parse, 10 s without it) asks
 * again here, through apiRequest and its rules.
 */
export async function listProducts(userId?: number): Promise<ProductList> {
  const parser = import("../../../lib/json-slices");
  const parse = async (response: Response) => (await parser).parseResponseInSlices<Product>(response);
  const early = takeEarlyCatalogue(userId);
  if (early) {
    try {
      const list = await withTimeout(early, HTTP_TIMEOUT_MS);
      if (list) return { products: list.products, revision: revisionOf(list.revision) };
    } catch {
      // asked again below
    }
  }
  const { data, headers } = await withRetries(() => apiRequest<Product[]>(EARLY_PATHS.catalogue, { parse }), RETRY_DELAYS_MS);
  return { products: data, revision: revisionOf(headers.get(CATALOGUE_REVISION_HEADER)) };
}

/** `promise`, or a rejection after `ms`. */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** GET /api/products?since=R: every product changed after revision R, and the new watermark. */
export function listProductsSince(revision: number): Promise<ProductsSince> {
  return withRetries(() => apiFetch<ProductsSince>(`/api/products?since=${revision}`), RETRY_DELAYS_MS);
}
