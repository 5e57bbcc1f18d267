import type { Product } from "../../contract/products";

/** What a slab says about itself ("PSA 10"); a raw card its condition. */
export function gradeText(p: Pick<Product, "grader" | "grade" | "condition">): string {
  if (p.grader) return [p.grader, p.grade].filter(Boolean).join(" ");
  return p.grade ? `Grade ${p.grade}` : (p.condition ?? "");
}

/** Set and card number: "2023 Prizm #136". */
export function setText(p: Pick<Product, "set_name" | "card_number">): string {
  const number = p.card_number ? (p.card_number.startsWith("#") ? p.card_number : `#${p.card_number}`) : "";
  return [p.set_name, number].filter(Boolean).join(" ");
}
