import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateProductBody, Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { useProductStore } from "../store/product-store-provider";

/** POST /api/products: the created product (201). */
export function createProduct(body: CreateProductBody): Promise<Product> {
  return apiFetch<Product>("/api/products", { method: "POST", body });
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
