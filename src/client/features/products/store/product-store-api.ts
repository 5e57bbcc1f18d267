import type { Product, ProductsSince, QuantityChangeBody } from "../../../../contract/products";
import { adjustQuantity, newIdempotencyKey } from "../api/adjust-quantity";
import { listFirstProducts, listProducts, listProductsSince, type ProductList } from "../api/list-products";
import { lookupBarcode } from "../api/lookup-barcode";

/** The calls the product store makes (the app passes productStoreApi, tests fakes). */
export interface ProductStoreApi {
  /** The whole catalogue; `userId`: the signed-in user (an answer the page asked for early is theirs only). */
  list(userId?: number): Promise<ProductList>;
  /** The list's first products, newest first (a screenful to show while the whole list downloads); none: wait for the list. */
  first?(): Promise<Product[]>;
  since(revision: number): Promise<ProductsSince>;
  lookup(barcode: string): Promise<Product | null>;
  adjust(id: number, body: QuantityChangeBody, key: string): Promise<Product>;
  newKey(): string;
}

/** The product store's calls to the server. */
export const productStoreApi: ProductStoreApi = {
  first: listFirstProducts,
  list: listProducts,
  since: listProductsSince,
  lookup: (barcode) => lookupBarcode(barcode),
  adjust: (id, body, key) => adjustQuantity(id, body, key),
  newKey: newIdempotencyKey,
};
