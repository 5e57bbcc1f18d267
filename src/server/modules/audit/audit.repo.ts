import type { ProductAuditAction, TransactionType } from "../../../contract/audit.js";
import type { Db } from "../../db/client.js";
import { productAudit, quantityAudit } from "../../db/schema.js";

export interface ProductAuditInsert {
  productId: number;
  productName: string;
  barcode: string;
  action: ProductAuditAction;
  userId: number;
  userName: string;
  changedFields: string[];
  oldValues: Record<string, unknown> | null;
  newValues: Record<string, unknown> | null;
  ipAddress: string | null;
}

export interface QuantityAuditInsert {
  productId: number;
  productName: string;
  barcode: string;
  quantityChange: number;
  quantityBefore: number;
  quantityAfter: number;
  transactionType: TransactionType;
  notes: string | null;
  userId: number;
  userName: string;
}

/** Writes product audit rows; call inside the transaction of the change they record. Set-based for imports. */
export async function insertProductAudit(tx: Db, rows: ProductAuditInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(productAudit).values(rows);
}

/** Writes quantity audit rows; call inside the transaction of the change they record. */
export async function insertQuantityAudit(tx: Db, rows: QuantityAuditInsert[]): Promise<void> {
  if (rows.length === 0) return;
  await tx.insert(quantityAudit).values(rows);
}
