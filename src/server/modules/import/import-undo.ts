import type { ImportField } from "../../../contract/import.js";
import { type ImportUndoResult, type NotReverted, undoReasons } from "../../../contract/imports.js";
import { conflict, notFound } from "../../app-error.js";
import type { ServiceContext } from "../../context.js";
import { yieldToPeople } from "../../db/people-first.js";
import { withTransaction } from "../../db/tx.js";
import { requirePermission } from "../../permissions.js";
import { type AuditedValues, auditedValues, stockChanged } from "../products/product-changes.js";
import { changesAfter, type Importer, importAuditEntries, lockProductsById, type ProductUpdate, writeProducts } from "./import.repo.js";
import { type ImportDeps, summaryOf } from "./import-jobs.js";
import { findJob, markUndone } from "./import-jobs.repo.js";

/** Audit entries of the import reverted per transaction. */
const UNDO_BATCH = 500;
const UNDO_NOTE = "Import undone";

/**
 * Reverts an import (docs/decisions/0001-imports-as-durable-jobs.md): each field it changed goes back to its
 * value before the import where no one changed it since (read from the audit trail under the
 * product's lock), and each product it created and no one touched since is disabled. Written in
 * short transactions, audited as the undoing user's changes; the answer lists what was left.
 */
export async function undoImport(ctx: ServiceContext, deps: ImportDeps, id: string): Promise<ImportUndoResult> {
  requirePermission(ctx, "canManageProducts");
  const job = await findJob(ctx.db, id);
  if (!job) throw notFound("Import not found");
  if (job.undoneAt) throw conflict("This import was already undone");
  if (job.status === "staging" || job.status === "committing") throw conflict("This import is still running: undo it once it is done");
  if (!(await markUndone(ctx.db, id, ctx.actor.username))) throw conflict("This import was already undone");

  const who: Importer = { userId: ctx.actor.id, userName: ctx.actor.username, ipAddress: ctx.ip, importId: null, note: UNDO_NOTE };
  const result = { reverted: 0, disabled: 0, not_reverted: [] as NotReverted[] };
  let after = 0;
  for (;;) {
    await yieldToPeople(deps.database);
    const entries = await importAuditEntries(ctx.db, id, after, UNDO_BATCH);
    if (entries.length === 0) break;
    after = entries[entries.length - 1]?.id ?? after;
    await withTransaction(ctx.db, async (tx, afterCommit) => {
      const ids = [...new Set(entries.flatMap((e) => (e.productId === null ? [] : [e.productId])))];
      const locked = new Map((await lockProductsById(tx, ids)).map((p) => [p.id, p]));
      const later = await changesAfter(tx, ids, Math.min(...entries.map((e) => e.id)));
      const updates: ProductUpdate[] = [];
      for (const entry of entries) {
        const product = entry.productId === null ? undefined : locked.get(entry.productId);
        const left = (reason: string) =>
          result.not_reverted.push({ product_id: entry.productId, barcode: entry.barcode, product_name: entry.productName, reason });
        if (!product) {
          left(undoReasons.gone);
          continue;
        }
        const since = later.filter((c) => c.productId === product.id && c.id > entry.id);
        const now = auditedValues(product);
        if (entry.action === "CREATE") {
          if (since.length > 0) left(undoReasons.createdChanged);
          else if (now.is_active) updates.push(change(product.id, "DISABLE", { is_active: false }, now));
          continue;
        }
        const changedSince = new Set(since.flatMap((c) => c.fields));
        const kept = entry.fields.filter((f) => changedSince.has(f));
        const back = Object.fromEntries(
          entry.fields.filter((f) => !changedSince.has(f)).map((f) => [f, entry.oldValues?.[f] ?? null]),
        ) as Partial<AuditedValues>;
        if (Object.keys(back).length > 0) updates.push(change(product.id, "UPDATE", back, now));
        if (kept.length > 0) left(undoReasons.fieldsChanged(kept));
      }
      if (updates.length === 0) return;
      const written = await writeProducts(tx, who, [], updates);
      if (written === "raced" || written.revision === null) throw new Error("undo: the changes were not written");
      const { revision, reached } = written;
      for (const u of updates) {
        if (u.action === "DISABLE") result.disabled++;
        else result.reverted++;
      }
      afterCommit(() => stockChanged(ctx, { type: "products_imported", count: updates.length, revision, reached }));
    });
  }
  const undone = await findJob(ctx.db, id);
  if (!undone) throw notFound("Import not found");
  return { import: summaryOf(undone), ...result };
}

function change(id: number, action: ProductUpdate["action"], values: Partial<AuditedValues>, now: AuditedValues): ProductUpdate {
  const fields = Object.keys(values) as ImportField[];
  return { id, action, fields, old: Object.fromEntries(fields.map((f) => [f, now[f]])), new: values };
}
