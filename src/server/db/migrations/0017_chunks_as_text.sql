-- An import's staged rows are JSON text the server made (import-body.ts) and reads back with
-- JSON.parse: storing them as jsonb parsed every chunk into a document nobody queried, and TOAST
-- compressed it, for rows kept only until the import is written. Text, stored uncompressed
-- (EXTERNAL): staging is then a plain copy of the bytes.
ALTER TABLE "import_chunks" ALTER COLUMN "rows" SET DATA TYPE text;--> statement-breakpoint
ALTER TABLE "import_chunks" ALTER COLUMN "rows" SET STORAGE EXTERNAL;
