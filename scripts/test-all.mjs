// `npm test`: the build, the unit, component and server tests (vitest), then the browser tests
// (Playwright), one after the other; stops at the first that fails, with its exit code. The
// closing lines give each part's time. CI (.ci/run) adds the large-catalogue browser tests
// (--large) and the server tests on PostgreSQL (--postgres): `npm test -- --large --postgres`.
import { spawn } from "node:child_process";

/** --postgres: DATABASE_URL when set, else the local server (trust auth, database `test`). */
const POSTGRES_URL = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
const args = process.argv.slice(2);
const unknown = args.filter((a) => !["--large", "--postgres"].includes(a));
if (unknown.length > 0) {
  console.error(
    `Unknown option ${unknown.join(" ")}. Options: --large (the @large browser tests), --postgres (the server tests on PostgreSQL).`,
  );
  process.exit(2);
}

const parts = [
  { name: "build", command: "npm run build" },
  { name: "unit, component and server tests", command: "npx vitest run" },
  { name: "browser tests", command: "npm run test:e2e" },
  ...(args.includes("--large") ? [{ name: "large-catalogue browser tests", command: "npm run test:e2e:large" }] : []),
  ...(args.includes("--postgres")
    ? [{ name: "server tests on PostgreSQL", command: "npx vitest run --project server", env: { DATABASE_URL: POSTGRES_URL } }]
    : []),
];

/** Runs `command` in a shell with the terminal's output; answers its exit code (a signal counts as 1). */
function run(command, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, { shell: true, stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
    child.on("error", () => resolve(1));
  });
}

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;
const minutes = (ms) => `${Math.floor(ms / 60_000)}:${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}`;

const results = [];
const started = Date.now();
let exitCode = 0;
for (const part of parts) {
  console.log(`\n=== ${part.name}: ${part.command}\n`);
  const partStarted = Date.now();
  exitCode = await run(part.command, part.env);
  results.push({ name: part.name, ms: Date.now() - partStarted, ok: exitCode === 0 });
  if (exitCode !== 0) break;
}
const total = Date.now() - started;

const width = Math.max(...parts.map((p) => p.name.length), "total".length);
console.log("\nTime of each part:");
for (const part of parts) {
  const result = results.find((r) => r.name === part.name);
  const time = result ? `${minutes(result.ms).padStart(6)}  (${seconds(result.ms)})` : "   not run";
  console.log(`  ${part.name.padEnd(width)}  ${time}${result && !result.ok ? `  FAILED (exit code ${exitCode})` : ""}`);
}
console.log(`  ${"total".padEnd(width)}  ${minutes(total).padStart(6)}  (${seconds(total)})`);
process.exit(exitCode);
