import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateProductBody, Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { useProductStore } from "../store/product-store-provider";

/** POST /api/products: the created product (201). */
export function createProduct(body: CreateProductBody): Promise<Product> {
  return apiFetch<Product>("/api/products", { method: "POST", body });
}

/** POST /api/products/shop-code: a new shop code (SC-000123) for a product without a scannable barcode. */
export async function newShopCode(): Promise<string> {
  return (await apiFetch<{ barcode: string }>("/api/products/shop-code", { method: "POST" })).barcode;
}

/** Creates a product and puts the answer into the product store. */
export function useCreateProduct() {
  const queryClient = useQueryClient();
  const store = useProductStore();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: (product) => {
      store.put(product);
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
