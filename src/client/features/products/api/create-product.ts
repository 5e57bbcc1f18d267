import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateProductBody, Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { replaceProduct } from "./list-products";

/** POST /api/products: the created product (201). */
export function createProduct(body: CreateProductBody): Promise<Product> {
  return apiFetch<Product>("/api/products", { method: "POST", body });
}

export function useCreateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createProduct,
    onSuccess: (product) => {
      queryClient.setQueryData<Product[]>(queryKeys.products, (old) => replaceProduct(old, product));
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
