import type { ProductAuditAction, TransactionType } from "../../../contract/audit.js";
import type { InventoryEventData, InventoryEventType } from "../../../contract/events.js";
import type { Product } from "../../../contract/products.js";
import { reachedReorderPoint, type StockLevel, stockLevel } from "../../../contract/report-rules.js";
import { DETAIL_FIELDS } from "../../../contract/rules.js";
import type { ServiceContext } from "../../context.js";
import type { EventBus } from "../../events.js";
import type { ProductAuditInsert, QuantityAuditInsert } from "../audit/audit.repo.js";
import type { ProductRow } from "./products.repo.js";

/** The product fields audit entries speak about, by their API names: the spec's, then the card details. */
export const AUDITED_FIELDS = [
  "barcode",
  "product_name",
  "vendor",
  "release_year",
  "quantity_on_hand",
  "is_active",
  ...DETAIL_FIELDS,
] as const;
export type AuditedField = (typeof AUDITED_FIELDS)[number];
export type AuditedValues = Record<AuditedField, string | number | boolean | null>;

/** Each API field's column in a product row: the one map from API names to drizzle's. */
export const FIELD_COLUMNS = {
  barcode: "barcode",
  product_name: "productName",
  vendor: "vendor",
  release_year: "releaseYear",
  quantity_on_hand: "quantityOnHand",
  is_active: "isActive",
  price: "price",
  cost: "cost",
  condition: "condition",
  grader: "grader",
  grade: "grade",
  set_name: "setName",
  card_number: "cardNumber",
  location: "location",
  reorder_point: "reorderPoint",
} as const satisfies Record<AuditedField, keyof ProductRow>;

export function auditedValues(row: ProductRow): AuditedValues {
  return Object.fromEntries(AUDITED_FIELDS.map((f) => [f, row[FIELD_COLUMNS[f]]])) as AuditedValues;
}

/** The values a new product's CREATE audit entry shows: the spec's fields, and the card details that are set. */
export function createdValues(row: ProductRow): Partial<AuditedValues> {
  const values = auditedValues(row);
  for (const f of DETAIL_FIELDS) if (values[f] === null) delete values[f];
  return values;
}

export interface FieldChanges {
  fields: AuditedField[];
  oldValues: Partial<AuditedValues>;
  newValues: Partial<AuditedValues>;
}

/** Only the fields whose value differs, with old and new values; a field `after` leaves out (undefined) is not compared. */
export function diffValues(before: AuditedValues, after: Partial<AuditedValues>): FieldChanges {
  const changes: FieldChanges = { fields: [], oldValues: {}, newValues: {} };
  for (const field of AUDITED_FIELDS) {
    const value = after[field];
    if (value !== undefined && before[field] !== value) {
      changes.fields.push(field);
      changes.oldValues[field] = before[field];
      changes.newValues[field] = value;
    }
  }
  return changes;
}

/** products.service.ts still takes the permission check from here; it lives in server/permissions.ts. */
export { requirePermission } from "../../permissions.js";

const actorFields = (ctx: ServiceContext) => ({ userId: ctx.actor.id, userName: ctx.actor.username });

/** The product audit row of a change that produced `row` (its version is the one recorded). */
export function productAuditRow(
  ctx: ServiceContext,
  row: ProductRow,
  action: ProductAuditAction,
  changes: { fields: string[]; oldValues: Record<string, unknown> | null; newValues: Record<string, unknown> | null },
): ProductAuditInsert {
  return {
    productId: row.id,
    productName: row.productName,
    barcode: row.barcode,
    action,
    ...actorFields(ctx),
    changedFields: changes.fields,
    oldValues: changes.oldValues,
    newValues: changes.newValues,
    ipAddress: ctx.ip,
    productVersion: row.version,
  };
}

/** The quantity audit row of a stock change from `before` to the row's stock. */
export function quantityAuditRow(
  ctx: ServiceContext,
  row: ProductRow,
  before: number,
  transactionType: TransactionType,
  notes: string,
): QuantityAuditInsert {
  return {
    productId: row.id,
    productName: row.productName,
    barcode: row.barcode,
    quantityChange: row.quantityOnHand - before,
    quantityBefore: before,
    quantityAfter: row.quantityOnHand,
    transactionType,
    notes,
    ...actorFields(ctx),
  };
}

/** The event data of a change to one product: the spec's fields and the whole committed product. */
function productEventData(product: Product, extra: Partial<InventoryEventData> = {}): Omit<InventoryEventData, "updated_by"> {
  return {
    id: product.id,
    product_name: product.product_name,
    quantity_on_hand: product.quantity_on_hand,
    is_active: product.is_active,
    ...extra,
    product,
  };
}

/** A product as a change committed it. */
export interface CommittedProduct {
  product: Product;
  /**
   * Its stock and reorder point before the change, when the change could move either (a tap, an
   * order line, an edit); left out for a new product (not a change of its stock: product_created
   * says it) and for changes of other fields (status, photos).
   */
  before?: StockLevel;
  /** The live event's extras: `quantity_change`, `idempotency_key`. */
  extra?: Partial<InventoryEventData>;
}

/** What a writer tells `stockChanged` after its commit. */
export type StockChange =
  /** Products changed one by one: each raises its `inventory_update` of this type. */
  | { type: Exclude<InventoryEventType, "products_imported">; products: CommittedProduct[] }
  /**
   * Many products in one statement (an import's batches, an undo): one `products_imported` event
   * (screens catch up to `revision`), and `reached`: the products the statement found had reached
   * their reorder point (reached_reorder_point() in its RETURNING, migration 0020).
   */
  | { type: "products_imported"; count: number; revision: number; reached: Product[] };

/** Who made a change, as its live events name them: a request's actor, or the user an import runs for. */
export interface ChangeAuthor {
  events: EventBus;
  actor: { id: number; username: string };
}

/**
 * The one step after the commit of every change to products (call it from an afterCommit
 * callback, or once the change's one statement has returned): the live `inventory_update`, and
 * the managers' `low_stock` toast for each product the change took to or under its reorder point
 * (the contract's reachedReorderPoint, the mirror of the SQL rule whose trigger writes the
 * `product.low_stock` webhook in the change's own transaction, migration 0020). A new writer
 * (trade-ins, stock takes) calls this and nothing else.
 */
export function stockChanged(by: ChangeAuthor, change: StockChange): void {
  const timestamp = new Date().toISOString();
  const emit = (type: InventoryEventType, data: Omit<InventoryEventData, "updated_by">) =>
    by.events.emit("inventory_update", { type, data: { ...data, updated_by: by.actor.username }, timestamp, userId: by.actor.id });
  const lowStock = (product: Product) =>
    by.events.emit("low_stock", { product, timestamp, userId: by.actor.id, username: by.actor.username });

  if (change.type === "products_imported") {
    emit("products_imported", { count: change.count, revision: change.revision });
    for (const product of change.reached) lowStock(product);
    return;
  }
  for (const { product, before, extra } of change.products) {
    emit(change.type, productEventData(product, extra));
    if (before && reachedReorderPoint(before, stockLevel(product))) lowStock(product);
  }
}
