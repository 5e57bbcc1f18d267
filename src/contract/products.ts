import { z } from "zod";
import { photoSchema } from "./photos.js";
import {
  BARCODE_MAX,
  BARCODE_PATH_MAX,
  CARD_NUMBER_MAX,
  CONDITIONS,
  DETAIL_MESSAGES,
  EDITABLE_FIELDS,
  GRADE_MAX,
  GRADERS,
  LOCATION_MAX,
  MESSAGES,
  MONEY_MAX_CENTS,
  NAME_MAX,
  PRODUCTS_LIMIT_MAX,
  QUANTITY_MAX_EXCLUSIVE,
  QUANTITY_MIN,
  QUANTITY_REASON_DEFAULT,
  RELEASE_YEAR_MAX,
  RELEASE_YEAR_MIN,
  REORDER_POINT_MAX,
  SET_NAME_MAX,
} from "./rules.js";

export const productSchema = z.object({
  id: z.number().int(),
  barcode: z.string(),
  product_name: z.string(),
  vendor: z.string(),
  release_year: z.number().int().nullable(),
  quantity_on_hand: z.number().int(),
  is_active: z.boolean(),
  /** Card details (optional, null when not set). Money in whole cents of the shop's currency. */
  price: z.number().int().nullable(),
  cost: z.number().int().nullable(),
  condition: z.enum(CONDITIONS).nullable(),
  grader: z.enum(GRADERS).nullable(),
  grade: z.string().nullable(),
  set_name: z.string().nullable(),
  card_number: z.string().nullable(),
  location: z.string().nullable(),
  /** Stock at or under this puts the product on the "To reorder" list; null when not set. */
  reorder_point: z.number().int().nullable(),
  /** Its photos, the cover first; empty when none. */
  photos: z.array(photoSchema),
  version: z.number().int(),
  /** Catalogue-wide, from one database sequence: every change to the product gets a higher one. */
  revision: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Product = z.infer<typeof productSchema>;

/** Printable text: no control characters. */
const PRINTABLE = /^[^\p{Cc}]*$/u;

const requiredText = (max: number, label: string) =>
  z
    .string({ error: MESSAGES.productRequired })
    .trim()
    .min(1, MESSAGES.productRequired)
    .max(max, `${label} must be at most ${max} characters`);

export const barcodeSchema = requiredText(BARCODE_MAX, "Barcode").regex(PRINTABLE, "Barcode must be printable text");
export const productNameSchema = requiredText(NAME_MAX, "Product name");
export const vendorSchema = requiredText(NAME_MAX, "Vendor");

export const releaseYearSchema = z
  .number({ error: MESSAGES.releaseYearRange })
  .int(MESSAGES.releaseYearRange)
  .min(RELEASE_YEAR_MIN, MESSAGES.releaseYearRange)
  .max(RELEASE_YEAR_MAX, MESSAGES.releaseYearRange)
  .nullable();

export const quantitySchema = z
  .number({ error: MESSAGES.quantityInvalid })
  .int(MESSAGES.quantityInvalid)
  .min(QUANTITY_MIN, MESSAGES.quantityInvalid)
  .lt(QUANTITY_MAX_EXCLUSIVE, MESSAGES.quantityInvalid);

/** Whole cents, 0 to MONEY_MAX_CENTS; null clears. */
const moneySchema = (message: string) => z.number({ error: message }).int(message).min(0, message).max(MONEY_MAX_CENTS, message).nullable();
/** Optional text: trimmed, empty means not set (null). */
const optionalText = (max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .max(max, message)
    .regex(PRINTABLE, message)
    .nullable()
    .transform((v) => (v ? v : null));

/** The card details an add or edit may send (each optional; null or "" clears). */
export const productDetailsSchema = z.object({
  price: moneySchema(DETAIL_MESSAGES.price).optional(),
  cost: moneySchema(DETAIL_MESSAGES.cost).optional(),
  condition: z.enum(CONDITIONS, { error: DETAIL_MESSAGES.condition }).nullable().optional(),
  grader: z.enum(GRADERS, { error: DETAIL_MESSAGES.grader }).nullable().optional(),
  grade: optionalText(GRADE_MAX, DETAIL_MESSAGES.grade).optional(),
  set_name: optionalText(SET_NAME_MAX, DETAIL_MESSAGES.setName).optional(),
  card_number: optionalText(CARD_NUMBER_MAX, DETAIL_MESSAGES.cardNumber).optional(),
  location: optionalText(LOCATION_MAX, DETAIL_MESSAGES.location).optional(),
  reorder_point: z
    .number({ error: DETAIL_MESSAGES.reorderPoint })
    .int(DETAIL_MESSAGES.reorderPoint)
    .min(0, DETAIL_MESSAGES.reorderPoint)
    .max(REORDER_POINT_MAX, DETAIL_MESSAGES.reorderPoint)
    .nullable()
    .optional(),
});
export type ProductDetails = z.input<typeof productDetailsSchema>;

export const createProductBodySchema = z.object({
  barcode: barcodeSchema,
  product_name: productNameSchema,
  vendor: vendorSchema,
  release_year: releaseYearSchema.optional().default(null),
  quantity_on_hand: quantitySchema.optional().default(0),
  ...productDetailsSchema.shape,
});
export type CreateProductBody = z.input<typeof createProductBodySchema>;

/**
 * An edit: any non-empty subset of the editable fields; fields left out do not change. The
 * spec's full body is one such subset.
 */
export const updateProductBodySchema = z
  .object({
    barcode: barcodeSchema.optional(),
    product_name: productNameSchema.optional(),
    vendor: vendorSchema.optional(),
    release_year: releaseYearSchema.optional(),
    quantity_on_hand: quantitySchema.optional(),
    ...productDetailsSchema.shape,
    /** The version the edit was based on: it conflicts only when a sent field changed since (409). */
    version: z.number().int().positive().optional(),
  })
  .refine((body) => EDITABLE_FIELDS.some((f) => body[f] !== undefined), { message: "Nothing to update" });
export type UpdateProductBody = z.input<typeof updateProductBodySchema>;

export const quantityChangeBodySchema = z.object({
  quantity_change: z
    .number({ error: MESSAGES.quantityChangeInvalid })
    .int(MESSAGES.quantityChangeInvalid)
    .refine((n) => n !== 0, MESSAGES.quantityChangeInvalid)
    .refine((n) => Math.abs(n) < QUANTITY_MAX_EXCLUSIVE, MESSAGES.quantityChangeInvalid),
  reason: z.string().trim().max(200).optional().default(QUANTITY_REASON_DEFAULT),
  /**
   * A stock count ("set counted"): the stock the count started from. When the product's stock is
   * no longer this, the change is refused with 409 STOCK_MOVED and nothing changes, so a sale made
   * during the count is never overwritten.
   */
  expected_quantity: z.number().int().min(QUANTITY_MIN).lt(QUANTITY_MAX_EXCLUSIVE).optional(),
  /**
   * The show the tap was made in (POST /api/shows): written into the quantity audit with the
   * change. Only one's own show (403 otherwise, 404 when there is no such show); an ended show is
   * accepted, so a tap queued offline during the show still lands in it.
   */
  show_id: z.number().int().positive().max(2_147_483_647).optional(),
});
export type QuantityChangeBody = z.input<typeof quantityChangeBodySchema>;

export const idempotencyKeySchema = z.string().regex(/^[\x20-\x7e]{1,100}$/, "Idempotency-Key must be 1-100 printable characters");

export const productStatusBodySchema = z.object({ is_active: z.boolean() });

export const barcodeParamsSchema = z.object({
  barcode: z.string().min(1).max(BARCODE_PATH_MAX).describe("The barcode, URL-encoded: at most 100 characters as sent"),
});

/** The 409 of a stale edit: the current product and the sent fields that changed meanwhile. */
export const versionConflictBodySchema = z.object({
  error: z.string(),
  product: productSchema,
  /** Absent in answers of servers from before merging edits. */
  fields: z.array(z.string()).optional(),
});
export type VersionConflictBody = z.infer<typeof versionConflictBodySchema>;

/** GET /api/products?since=R: the catch-up after missed events. */
export const productsSinceQuerySchema = z.object({
  since: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
  /**
   * The caller catches up with ?since=R after the list: a list complete up to an earlier revision
   * R (named in X-Catalogue-Revision) will do, so the server may send the snapshot it already has.
   */
  catch_up: z
    .enum(["true", "false", "1", "0"])
    .optional()
    .transform((v) => v === "true" || v === "1"),
  /**
   * Only the list's first `limit` products, in the list's order (newest first): a first screenful
   * while the whole list downloads. Not with `since`.
   */
  limit: z.coerce.number().int().min(1).max(PRODUCTS_LIMIT_MAX).optional(),
});

/** Every product whose revision is above `since` (disabled ones too), and the catalogue's revision. */
export const productsSinceSchema = z.object({
  revision: z.number().int(),
  products: z.array(productSchema),
});
export type ProductsSince = z.infer<typeof productsSinceSchema>;

/** POST /api/products/shop-code: a new shop code (SC-000123), never handed out before and not in use. */
export const shopCodeSchema = z.object({ barcode: z.string() });

/** POST /api/products/{id}/photos: the stored photo and the product that now lists it. */
export const photoAddedSchema = z.object({ photo: photoSchema, product: productSchema });
/** DELETE and PUT of a product's photos: the product as it is now. */
export const productAnswerSchema = z.object({ product: productSchema });
