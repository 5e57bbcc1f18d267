import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { useProductStore } from "../store/product-store-provider";

/** PUT /api/products/{id}/status: the updated product. */
export function setProductStatus(id: number, isActive: boolean): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}/status`, { method: "PUT", body: { is_active: isActive } });
}

/** Disables or enables a product and puts the answer into the product store. */
export function useSetProductStatus() {
  const queryClient = useQueryClient();
  const store = useProductStore();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) => setProductStatus(id, isActive),
    onSuccess: (product) => {
      store.put(product);
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
