// The server the browser tests run against: a fresh embedded database each run.
import { rmSync } from "node:fs";

rmSync(process.env.DATA_DIR, { recursive: true, force: true });
await import("../src/server/main.ts");
