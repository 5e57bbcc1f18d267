-- Duplicates within an import are now found once per import in memory (import-rows.ts), from its stored rows.
DROP TABLE "import_keys" CASCADE;