import { afterAll, beforeAll } from "vitest";
import type { Database } from "../db/client.js";
import { createTestDatabase } from "./test-app.js";

/**
 * A test file's own database (createTestDatabase): opened before the file's first test, closed
 * and dropped after its last. Read `.database` in tests and hooks, not at the file's top level.
 */
export function fileDatabase(): { readonly database: Database } {
  let opened: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  beforeAll(async () => {
    opened = await createTestDatabase();
  });
  afterAll(async () => {
    await opened?.database.close();
    await opened?.drop();
  });
  return {
    get database() {
      if (!opened) throw new Error("The file's database opens in beforeAll: read it in a test or a hook");
      return opened.database;
    },
  };
}
