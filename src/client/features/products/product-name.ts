/** The name in an update result: product_name, else 'name' when that is all it has. No zod: the first screen uses it. */
export function productNameOf(result: { product_name?: string | null; name?: string | null }): string {
  return result.product_name || result.name || "";
}
