import { z } from "zod";
import { centsToAmount, parseAmount } from "../../../contract/money";
import { createProductBodySchema, type Product } from "../../../contract/products";
import { DETAIL_FIELDS, type DetailField, EDITABLE_FIELDS, type EditableField } from "../../../contract/rules";

/** What the form's inputs hold: text, as typed ("" for a detail not set; condition and grader from selects). */
export type ProductFormValues = Record<EditableField, string>;

export const EMPTY_PRODUCT_FORM: ProductFormValues = {
  barcode: "",
  product_name: "",
  vendor: "",
  release_year: "",
  quantity_on_hand: "0",
  ...(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, ""])) as Record<DetailField, string>),
};

/** An amount as typed to cents for the contract's schema: blank -> null, not an amount -> -1 (its message). */
function centsOf(text: string): number | null {
  if (text.trim() === "") return null;
  return parseAmount(text) ?? -1;
}

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
 * In the edit dialog a non-numeric quantity becomes 0.
 */
export function productFormSchema(mode: "add" | "edit") {
  return z
    .object(Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, z.string()])) as Record<EditableField, z.ZodString>)
    .transform((v, ctx): EditableValues => {
      const body = createProductBodySchema.safeParse({
        barcode: v.barcode,
        product_name: v.product_name,
        vendor: v.vendor,
        release_year: toInteger(v.release_year, null, Number.NaN),
        quantity_on_hand: toInteger(v.quantity_on_hand, 0, mode === "edit" ? 0 : Number.NaN),
        price: centsOf(v.price),
        cost: centsOf(v.cost),
        condition: v.condition || null,
        grader: v.grader || null,
        grade: v.grade,
        set_name: v.set_name,
        card_number: v.card_number,
        location: v.location,
        reorder_point: toInteger(v.reorder_point, null, Number.NaN),
      });
      if (body.success) return editableOf({ ...body.data, ...detailsOrNull(body.data) });
      for (const issue of body.error.issues) ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
      return z.NEVER;
    });
}

export type ProductFormOutput = z.output<ReturnType<typeof productFormSchema>>;

/** Details the body left out as null (not set). */
function detailsOrNull(body: Partial<Pick<Product, DetailField>>): Pick<Product, DetailField> {
  return Object.fromEntries(DETAIL_FIELDS.map((f) => [f, body[f] ?? null])) as Pick<Product, DetailField>;
}

export function formValuesOf(product: EditableValues): ProductFormValues {
  const money = (cents: number | null) => (cents === null ? "" : centsToAmount(cents));
  return {
    barcode: product.barcode,
    product_name: product.product_name,
    vendor: product.vendor,
    release_year: product.release_year === null ? "" : String(product.release_year),
    quantity_on_hand: String(product.quantity_on_hand ?? 0),
    price: money(product.price),
    cost: money(product.cost),
    condition: product.condition ?? "",
    grader: product.grader ?? "",
    grade: product.grade ?? "",
    set_name: product.set_name ?? "",
    card_number: product.card_number ?? "",
    location: product.location ?? "",
    reorder_point: product.reorder_point === null || product.reorder_point === undefined ? "" : String(product.reorder_point),
  };
}

/** The values an edit can change. */
export type EditableValues = Pick<Product, EditableField>;

export function editableOf(product: EditableValues): EditableValues {
  return Object.fromEntries(EDITABLE_FIELDS.map((f) => [f, product[f]])) as EditableValues;
}

/** The fields of `mine` that differ from `base`: what an edit sends (nothing else may change). */
export function changedFields(mine: EditableValues, base: EditableValues): Partial<EditableValues> {
  const out: Partial<Record<EditableField, unknown>> = {};
  for (const field of EDITABLE_FIELDS) if (mine[field] !== base[field]) out[field] = mine[field];
  return out as Partial<EditableValues>;
}

/** Unique messages of a form's errors, in field order (the required message shows once). */
export function uniqueMessages(errors: Partial<Record<keyof ProductFormValues, { message?: string }>>): string[] {
  const out: string[] = [];
  for (const key of EDITABLE_FIELDS) {
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
  price: "Price",
  cost: "Cost",
  condition: "Condition",
  grader: "Grader",
  grade: "Grade",
  set_name: "Set",
  card_number: "Card number",
  location: "Location",
  reorder_point: "Reorder point",
};
