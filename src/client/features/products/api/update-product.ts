import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Product, type UpdateProductBody, type VersionConflictBody, versionConflictBodySchema } from "../../../../contract/products";
import { ApiError, apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { useProductStore } from "../store/product-store-provider";

/**
 * PUT /api/products/{id} with only the fields to change: the updated product. With `version`,
 * an edit of a field someone else changed since is refused with 409.
 */
export function updateProduct(id: number, body: UpdateProductBody): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}`, { method: "PUT", body });
}

/** The body of a 409 "changed by someone else" answer (current product, conflicting fields), else null. */
export function versionConflict(err: unknown): VersionConflictBody | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const parsed = versionConflictBodySchema.safeParse(err.data);
  return parsed.success ? parsed.data : null;
}

/** Edits a product; the answer, or the current product of a conflict, goes into the product store. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  const store = useProductStore();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateProductBody }) => updateProduct(id, body),
    onSuccess: (product) => {
      store.put(product);
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
    onError: (err) => {
      const conflict = versionConflict(err);
      if (conflict) store.put(conflict.product);
    },
  });
}
