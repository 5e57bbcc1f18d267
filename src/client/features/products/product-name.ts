/** The name in an update result: product_name, with 'name' as the fallback (spec section 3). No zod: the first screen uses it. */
export function productNameOf(result: { product_name?: string | null; name?: string | null }): string {
  return result.product_name || result.name || "";
}
