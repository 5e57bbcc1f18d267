import { photoSchema } from "../../../contract/photos.js";
import { type Product, productSchema } from "../../../contract/products.js";
import type { ProductRow } from "./products.repo.js";

/** The API shape of a product row (timestamps as ISO 8601 UTC). Its SQL twin product_json_text() (migration 0018; product_json() is the same as json) builds the same. */
export function toProduct(row: ProductRow): Product {
  return {
    id: row.id,
    barcode: row.barcode,
    product_name: row.productName,
    vendor: row.vendor,
    release_year: row.releaseYear,
    quantity_on_hand: row.quantityOnHand,
    is_active: row.isActive,
    price: row.price,
    cost: row.cost,
    condition: row.condition,
    grader: row.grader,
    grade: row.grade,
    set_name: row.setName,
    card_number: row.cardNumber,
    location: row.location,
    reorder_point: row.reorderPoint,
    photos: row.photos,
    version: row.version,
    revision: row.revision,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** The product's keys in the schema's order, its photos' after them (JSON.stringify's key list applies at every level). */
const PRODUCT_JSON_KEYS = [...new Set([...Object.keys(productSchema.shape), ...Object.keys(photoSchema.shape)])];

/**
 * A product as its answer's JSON text, written once without the response serialiser's second
 * pass over the schema: the schema's keys in its order (a stored answer read back from jsonb, with
 * its keys reordered, gives the same text as the first), nothing else.
 */
export function productJsonText(product: Product): string {
  return JSON.stringify(product, PRODUCT_JSON_KEYS);
}
