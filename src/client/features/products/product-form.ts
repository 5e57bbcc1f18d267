import { z } from "zod";
import { type CreateProductBody, createProductBodySchema, type Product } from "../../../contract/products";
import { EDITABLE_FIELDS, type EditableField } from "../../../contract/rules";

/** What the form's inputs hold: text, as typed. */
export interface ProductFormValues {
  barcode: string;
  product_name: string;
  vendor: string;
  release_year: string;
  quantity_on_hand: string;
}

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  barcode: "",
  product_name: "",
  vendor: "",
  release_year: "",
  quantity_on_hand: "0",
};

export const ADD_FAILED = "Failed to add product";
export const UPDATE_FAILED = "Failed to update product";

/** Text to an integer: blank -> `blank`, a number -> its whole part, anything else -> `invalid`. */
export function toInteger<B, I>(text: string, blank: B, invalid: I): number | B | I {
  const t = text.trim();
  if (t === "") return blank;
  const n = Number(t);
  return Number.isFinite(n) ? Math.trunc(n) : invalid;
}

/**
 * Form text -> the API body, validated with the contract's own schema (same rules and
 * messages as the server). Values become integers; a blank year is null; a blank quantity 0.
 * In the edit dialog a non-numeric quantity becomes 0 (spec section 5).
 */
export function productFormSchema(mode: "add" | "edit") {
  return z
    .object({
      barcode: z.string(),
      product_name: z.string(),
      vendor: z.string(),
      release_year: z.string(),
      quantity_on_hand: z.string(),
    })
    .transform((v, ctx) => {
      const body = createProductBodySchema.safeParse({
        barcode: v.barcode,
        product_name: v.product_name,
        vendor: v.vendor,
        release_year: toInteger(v.release_year, null, Number.NaN),
        quantity_on_hand: toInteger(v.quantity_on_hand, 0, mode === "edit" ? 0 : Number.NaN),
      });
      if (body.success) return body.data;
      for (const issue of body.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    });
}

export type ProductFormOutput = z.output<ReturnType<typeof productFormSchema>>;

export function formValuesOf(product: Pick<Product, keyof CreateProductBody>): ProductFormValues {
  return {
    barcode: product.barcode,
    product_name: product.product_name,
    vendor: product.vendor,
    release_year: product.release_year === null || product.release_year === undefined ? "" : String(product.release_year),
    quantity_on_hand: String(product.quantity_on_hand ?? 0),
  };
}

/** The values an edit can change. */
export type EditableValues = Pick<Product, EditableField>;

export function editableOf(product: EditableValues): EditableValues {
  const { barcode, product_name, vendor, release_year, quantity_on_hand } = product;
  return { barcode, product_name, vendor, release_year, quantity_on_hand };
}

/** The fields of `mine` that differ from `base`: what an edit sends (nothing else may change). */
export function changedFields(mine: EditableValues, base: EditableValues): Partial<EditableValues> {
  const out: Partial<Record<EditableField, unknown>> = {};
  for (const field of EDITABLE_FIELDS) if (mine[field] !== base[field]) out[field] = mine[field];
  return out as Partial<EditableValues>;
}

/** Unique messages of a form's errors, in field order (the required message shows once). */
export function uniqueMessages(errors: Partial<Record<keyof ProductFormValues, { message?: string }>>): string[] {
  const order: Array<keyof ProductFormValues> = ["barcode", "product_name", "vendor", "release_year", "quantity_on_hand"];
  const out: string[] = [];
  for (const key of order) {
    const m = errors[key]?.message;
    if (m && !out.includes(m)) out.push(m);
  }
  return out;
}

export const FIELD_LABELS: Record<keyof ProductFormValues, string> = {
  barcode: "Barcode",
  product_name: "Product Name",
  vendor: "Vendor",
  release_year: "Release Year",
  quantity_on_hand: "Quantity",
};
