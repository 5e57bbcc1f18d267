import react from "@vitejs/plugin-react";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Twice the cores of the 2-core machines we run on: most server test files spend their time
    // waiting for a database process or a server process, not computing (5:30 -> 2:40 there).
    maxWorkers: 4,
    projects: [
      {
        test: {
          name: "server",
          environment: "node",
          include: ["src/server/**/*.test.ts", "src/contract/**/*.test.ts"],
          // The test files share each worker's modules instead of importing the server's hundred
          // modules again for every file (a third of their CPU time). They can: no test mocks a
          // module or stubs a global, and each file opens and closes its own apps and databases.
          isolate: false,
          // Once per run: a migrated database each test file copies, and the server built for
          // the tests that start server processes (src/server/test/templates.ts).
          globalSetup: ["src/server/test/global-setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [react()],
        test: {
          name: "client",
          environment: "jsdom",
          include: ["src/client/**/*.test.{ts,tsx}"],
          setupFiles: ["src/client/test/setup.ts"],
          // One jsdom and one copy of the modules per worker, not per file (a third of the time):
          // each test renders into a cleaned document (setup.ts) with its own store
          // and query client; the files pass in any order (checked with --sequence.shuffle).
          isolate: false,
          testTimeout: 15_000,
        },
      },
    ],
  },
});
