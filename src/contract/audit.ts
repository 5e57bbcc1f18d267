import { z } from "zod";
import { roleSchema } from "./users.js";

export const PRODUCT_AUDIT_ACTIONS = ["CREATE", "UPDATE", "DELETE", "DISABLE", "ENABLE", "QUANTITY_ADD", "QUANTITY_SUBTRACT"] as const;
export const productAuditActionSchema = z.enum(PRODUCT_AUDIT_ACTIONS);
export type ProductAuditAction = z.infer<typeof productAuditActionSchema>;

export const TRANSACTION_TYPES = ["create", "adjustment", "edit", "import"] as const;
export const transactionTypeSchema = z.enum(TRANSACTION_TYPES);
export type TransactionType = z.infer<typeof transactionTypeSchema>;

const values = z.record(z.string(), z.unknown()).nullable();

export const productAuditEntrySchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().nullable(),
  product_name: z.string(),
  barcode: z.string(),
  action: productAuditActionSchema,
  timestamp: z.string(),
  user_id: z.number().int().nullable(),
  user_name: z.string(),
  changed_fields: z.array(z.string()),
  old_values: values,
  new_values: values,
  ip_address: z.string().nullable(),
});
export type ProductAuditEntry = z.infer<typeof productAuditEntrySchema>;

export const quantityAuditEntrySchema = z.object({
  id: z.number().int(),
  product_id: z.number().int().nullable(),
  product_name: z.string(),
  barcode: z.string(),
  quantity_change: z.number().int(),
  quantity_before: z.number().int(),
  quantity_after: z.number().int(),
  transaction_type: transactionTypeSchema,
  notes: z.string().nullable(),
  user_name: z.string(),
  user_id: z.number().int().nullable(),
  timestamp: z.string(),
  /** The show the change was made in (POST /api/shows), and its name; null outside a show. */
  show_id: z.number().int().nullable().optional(),
  show_name: z.string().nullable().optional(),
  /** The order the change belongs to (POST /api/orders, or its cancellation), else null. */
  order_id: z.number().int().nullable().optional(),
  /** The stock take whose approval made the change (reason `Stock take #N`), else null. */
  stock_take_id: z.number().int().nullable().optional(),
});
export type QuantityAuditEntry = z.infer<typeof quantityAuditEntrySchema>;

export const AUDIT_LIMIT_DEFAULT = 100;
export const AUDIT_LIMIT_MAX = 1000;

export const auditQuerySchema = z.object({
  user_id: z.coerce.number().int().positive().optional(),
  since: z.iso.datetime({ offset: true }).optional(),
  until: z.iso.datetime({ offset: true }).optional(),
  limit: z.coerce.number().int().min(1).max(AUDIT_LIMIT_MAX).default(AUDIT_LIMIT_DEFAULT),
  offset: z.coerce.number().int().min(0).default(0),
  /** Quantity lists only: the changes made in one show. */
  show_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;

export const auditUserSchema = z.object({ id: z.number().int(), username: z.string(), role: roleSchema });
export type AuditUser = z.infer<typeof auditUserSchema>;
