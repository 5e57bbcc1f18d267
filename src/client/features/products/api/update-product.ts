import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type Product, type UpdateProductBody, versionConflictBodySchema } from "../../../../contract/products";
import { ApiError, apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { replaceProduct } from "./list-products";

/** PUT /api/products/{id}: the updated product. With `version`, a stale edit is refused with 409. */
export function updateProduct(id: number, body: UpdateProductBody): Promise<Product> {
  return apiFetch<Product>(`/api/products/${id}`, { method: "PUT", body });
}

/** The current product carried by a 409 "changed by someone else" answer, else null. */
export function conflictProduct(err: unknown): Product | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  const parsed = versionConflictBodySchema.safeParse(err.data);
  return parsed.success ? parsed.data.product : null;
}

export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: UpdateProductBody }) => updateProduct(id, body),
    onSuccess: (product) => {
      queryClient.setQueryData<Product[]>(queryKeys.products, (old) => replaceProduct(old, product));
      void queryClient.invalidateQueries({ queryKey: queryKeys.products });
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
    },
  });
}
