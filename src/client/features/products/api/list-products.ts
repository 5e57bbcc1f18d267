import { queryOptions, useQuery } from "@tanstack/react-query";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/products: every product, newest first. */
export function listProducts(signal?: AbortSignal): Promise<Product[]> {
  return apiFetch<Product[]>("/api/products", { signal });
}

/** The products list query (key ["products"], invalidated by live inventory events). */
export const productsQuery = () =>
  queryOptions({
    queryKey: queryKeys.products,
    queryFn: ({ signal }) => listProducts(signal),
  });

export function useProducts(enabled = true) {
  return useQuery({ ...productsQuery(), enabled });
}

/** Replaces one product in the cached list with a newer copy (never with an older version). */
export function replaceProduct(list: Product[] | undefined, next: Product): Product[] | undefined {
  if (!list) return list;
  let found = false;
  const out = list.map((p) => {
    if (p.id !== next.id) return p;
    found = true;
    return p.version > next.version ? p : next;
  });
  return found ? out : [next, ...out];
}
