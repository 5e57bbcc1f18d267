import type { SQL } from "drizzle-orm";
import type { Product } from "../../../contract/products.js";
import type { Db } from "../../db/client.js";
import { type BatchPlan, outcomeOf, planRows } from "./import.plan.js";
import { findProductsByBarcodes, type Importer, writeProducts } from "./import.repo.js";
import type { BatchOutcome } from "./import-jobs.repo.js";

/** Thrown when another transaction created one of the batch's new barcodes first: the batch is planned again. */
export class BatchRaced extends Error {
  constructor() {
    super("A new barcode of this batch was created meanwhile");
  }
}

export interface BatchWritten extends BatchOutcome {
  /** The revision the batch's changes got; null when it wrote nothing. */
  revision: number | null;
  /** The products it changed that reached their reorder point, as committed (for stockChanged). */
  reached: Product[];
  /** Whether the statement `record` added moved the import's cursor (false: the caller rolls back). */
  moved: boolean;
}

/**
 * One batch of an import (planBatch), in the caller's transaction, or on its own when the plan
 * looks nothing up (then it is one statement): locks the products the rows name (id order), plans
 * every row against them as they are now (planRows, the planner the dry run uses too, with the
 * `updated_at` merge), and writes the creations and changes with their audit rows. `record`: what the
 * same write statement also does with the batch's outcome (moves the import's cursor:
 * `recordBatch`); nothing is written unless the cursor moved. So a batch is a lock, one write and
 * its commit.
 */
export async function writeBatch(tx: Db, who: Importer, plan: BatchPlan, record: (outcome: BatchOutcome) => SQL): Promise<BatchWritten> {
  const locked = await findProductsByBarcodes(tx, plan.lookUp, true);
  const { outcome, creates, updates } = outcomeOf(plan.size, await planRows(tx, plan, locked));
  // The counts are known before writing: every product updated is locked, every creation is
  // inserted or the statement fails (checked below), so the cursor moves with them in the same statement.
  // Every product the batch writes is locked (or new): its revision is above every change committed before.
  const written = await writeProducts(tx, who, creates, updates, record(outcome));
  if (written === "raced") throw new BatchRaced();
  // Not moved: another runner has this batch, and the statement wrote nothing.
  if (!written.moved) return { ...outcome, revision: null, reached: [], moved: false };
  if (written.created !== creates.length || written.updated !== updates.length) throw new BatchRaced();
  return { ...outcome, revision: written.revision, reached: written.reached, moved: true };
}
