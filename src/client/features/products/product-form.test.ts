import { describe, expect, it } from "vitest";
import { DETAIL_MESSAGES, MESSAGES, NO_DETAILS } from "../../../contract/rules";
import { changedFields, EMPTY_PRODUCT_FORM, editableOf, formValuesOf, productFormSchema, toInteger } from "./product-form";
import { productNameOf } from "./product-name";

const add = productFormSchema("add");
const edit = productFormSchema("edit");
const valid = { ...EMPTY_PRODUCT_FORM, barcode: " 123456 ", product_name: "Box", vendor: "Topps" };

function messages(result: ReturnType<typeof add.safeParse>): string[] {
  return result.success ? [] : result.error.issues.map((i) => i.message);
}

describe("product form", () => {
  it("requires barcode, product name and vendor with the spec's message", () => {
    for (const blank of ["barcode", "product_name", "vendor"] as const) {
      const r = add.safeParse({ ...valid, [blank]: "   " });
      expect(messages(r)).toEqual([MESSAGES.productRequired]);
    }
  });

  it("converts to integers; a blank year is null and a blank quantity 0", () => {
    expect(add.parse({ ...valid, release_year: "2024", quantity_on_hand: "7.9" })).toEqual({
      ...NO_DETAILS,
      barcode: "123456",
      product_name: "Box",
      vendor: "Topps",
      release_year: 2024,
      quantity_on_hand: 7,
    });
    expect(add.parse({ ...valid, release_year: " ", quantity_on_hand: "" })).toMatchObject({ release_year: null, quantity_on_hand: 0 });
  });

  it("keeps the release year within 1900-2030 and the quantity at 0 or more", () => {
    expect(messages(add.safeParse({ ...valid, release_year: "1899" }))).toEqual([MESSAGES.releaseYearRange]);
    expect(messages(add.safeParse({ ...valid, release_year: "2031" }))).toEqual([MESSAGES.releaseYearRange]);
    expect(add.safeParse({ ...valid, release_year: "1900" }).success).toBe(true);
    expect(add.safeParse({ ...valid, release_year: "2030" }).success).toBe(true);
    expect(messages(add.safeParse({ ...valid, quantity_on_hand: "-1" }))).toEqual([MESSAGES.quantityInvalid]);
  });

  it("in the edit dialog a non-numeric quantity becomes 0", () => {
    expect(edit.parse({ ...valid, quantity_on_hand: "abc" }).quantity_on_hand).toBe(0);
    expect(add.safeParse({ ...valid, quantity_on_hand: "abc" }).success).toBe(false);
  });

  it("round-trips a product through the form values", () => {
    const values = formValuesOf({ barcode: "b12", product_name: "N", vendor: "V", release_year: null, quantity_on_hand: 4, ...NO_DETAILS });
    expect(values).toEqual({
      ...EMPTY_PRODUCT_FORM,
      barcode: "b12",
      product_name: "N",
      vendor: "V",
      release_year: "",
      quantity_on_hand: "4",
    });
    expect(toInteger("x", null, -1)).toBe(-1);
  });

  it("reads a name from an update result, falling back to 'name'", () => {
    expect(productNameOf({ product_name: "Box" })).toBe("Box");
    expect(productNameOf({ name: "Legacy" })).toBe("Legacy");
  });

  it("an edit sends only the fields that differ from the values it started from", () => {
    const base = { barcode: "123", product_name: "Box", vendor: "Topps", release_year: 2024, quantity_on_hand: 10, ...NO_DETAILS };
    expect(changedFields(edit.parse(formValuesOf(base)), base)).toEqual({});
    const mine = edit.parse({ ...formValuesOf(base), vendor: " Panini ", release_year: "" });
    expect(changedFields(mine, base)).toEqual({ vendor: "Panini", release_year: null });
    expect(editableOf({ ...base, id: 4, revision: 9 } as typeof base)).toEqual(base);
  });
});

describe("the Details section", () => {
  const slab = {
    barcode: "SC-000042",
    product_name: "Wembanyama Silver",
    vendor: "Panini",
    release_year: 2023,
    quantity_on_hand: 1,
    price: 15000,
    cost: 9950,
    condition: null,
    grader: "PSA",
    grade: "10",
    set_name: "2023 Prizm",
    card_number: "#136",
    location: "Case 2",
    reorder_point: 2,
  } as const;

  it("reads amounts as cents, empty details as not set, and round-trips a slab", () => {
    const values = formValuesOf(slab);
    expect(values).toMatchObject({ price: "150.00", cost: "99.50", grader: "PSA", condition: "" });
    expect(add.parse(values)).toEqual(slab);
    expect(add.parse({ ...values, price: "$1,250.5", grade: " 9.5 " })).toMatchObject({ price: 125050, grade: "9.5" });
    expect(add.parse({ ...EMPTY_PRODUCT_FORM, barcode: "123", product_name: "Box", vendor: "Topps" })).toMatchObject(NO_DETAILS);
  });

  it("refuses a bad amount with the contract's message", () => {
    const values = formValuesOf(slab);
    for (const price of ["-1", "12.505", "abc"]) {
      const result = add.safeParse({ ...values, price });
      expect(result.success).toBe(false);
      expect(result.error?.issues.map((i) => i.message)).toEqual([DETAIL_MESSAGES.price]);
    }
  });

  it("an edit that clears a detail sends null for it, and only the details that changed", () => {
    const mine = edit.parse({ ...formValuesOf(slab), price: "", location: "Binder 3" });
    expect(changedFields(mine, slab)).toEqual({ price: null, location: "Binder 3" });
  });
});
