import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { replaceProduct } from "./list-products";

/** PUT /api/products/{id}/status: the updated product. */
export function setProductStatus(id: number, isActive: boolean): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}/status`, { method: "PUT", body: { is_active: isActive } });
}

export function useSetProductStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) => setProductStatus(id, isActive),
    onSuccess: (product) => {
      queryClient.setQueryData<Product[]>(queryKeys.products, (old) => replaceProduct(old, product));
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
