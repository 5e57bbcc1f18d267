-- The catalogue catch-up pages by (revision, id) (catalogue-mirror.ts readChanges): with an index on
-- revision alone every page sorted the products sharing a revision (an import batch's products).
DROP INDEX "products_revision_idx";--> statement-breakpoint
CREATE INDEX "products_revision_id_idx" ON "products" USING btree ("revision","id");