import { adjustQuantity, newIdempotencyKey } from "../api/adjust-quantity";
import { listFirstProducts, listProducts, listProductsSince } from "../api/list-products";
import { lookupBarcode } from "../api/lookup-barcode";
import type { ProductStoreApi } from "./product-store";

/** The product store's calls to the server. */
export const productStoreApi: ProductStoreApi = {
  first: listFirstProducts,
  list: listProducts,
  since: listProductsSince,
  lookup: (barcode) => lookupBarcode(barcode),
  adjust: (id, body, key) => adjustQuantity(id, body, key),
  newKey: newIdempotencyKey,
};
