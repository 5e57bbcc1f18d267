import type { InventoryUpdate } from "../../../contract/events";

/** One line for a live toast, e.g. "alice sold 2 of Topps Chrome (8 left)". */
export function describeUpdate(update: InventoryUpdate): string {
  const { data } = update;
  const who = data.updated_by || "Someone";
  const name = data.product_name || "a product";
  switch (update.type) {
    case "quantity_changed": {
      const change = data.quantity_change ?? 0;
      const stock = data.quantity_on_hand;
      if (change < 0) return `${who} sold ${Math.abs(change)} of ${name}${stock !== undefined ? ` (${stock} left)` : ""}`;
      return `${who} added ${change} to ${name}${stock !== undefined ? ` (${stock} in stock)` : ""}`;
    }
    case "product_created":
      return `${who} added a new product: ${name}`;
    case "product_updated":
      return `${who} updated ${name}`;
    case "status_changed":
      return `${who} ${data.is_active === false ? "disabled" : "enabled"} ${name}`;
    case "products_imported":
      return `${who} imported products (${data.count ?? 0} changed)`;
    default:
      return `${who} changed the inventory`;
  }
}
