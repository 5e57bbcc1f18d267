import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import pg from "pg";
import { BackupError } from "./embedded-backup.js";

/**
 * Backups of a PostgreSQL database with PostgreSQL's own tools: pg_dump's custom format, read
 * back by pg_restore in one transaction. The password travels in PGPASSWORD, not on the command
 * line (where other users of the machine could read it).
 */

function connection(url: string): { dbname: string; env: NodeJS.ProcessEnv } {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return { dbname: parsed.toString(), env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) } };
}

function run(tool: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(tool, args, { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d) => {
      stderr += String(d);
    });
    child.once("error", (err: NodeJS.ErrnoException) =>
      fail(
        new BackupError(
          err.code === "ENOENT"
            ? `${tool} is not installed: install the PostgreSQL client tools (the server's major version or newer).`
            : `${tool} failed to start: ${err.message}`,
        ),
      ),
    );
    child.once("exit", (code) => (code === 0 ? done() : fail(new BackupError(`${tool} failed (exit ${code}):\n${stderr.trim()}`))));
  });
}

/** Writes `pg_dump --format=custom` of the database to `file`. */
export async function backupPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  await run("pg_dump", ["--format=custom", "--no-owner", "--file", file, "--dbname", dbname], env);
}

/** Whether the database holds any table of its own (the server creates its tables on its first start). */
async function hasTables(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema not in ('pg_catalog', 'information_schema')",
    );
    return (rows[0]?.n ?? 0) > 0;
  } finally {
    await client.end();
  }
}

/**
 * Restores a pg_dump backup into the database, in one transaction. A database that already has
 * tables is refused unless `force`; then the backup's objects replace the existing ones.
 */
export async function restorePostgres(url: string, file: string, opts: { force?: boolean } = {}): Promise<void> {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${resolve(file)}.`);
  const nonEmpty = await hasTables(url);
  if (nonEmpty && !opts.force) {
    throw new BackupError(
      "The database already has tables. Restoring would replace them: stop the servers, then run the restore again with --force.",
    );
  }
  const { dbname, env } = connection(url);
  const clean = nonEmpty ? ["--clean", "--if-exists"] : [];
  await run("pg_restore", ["--no-owner", "--single-transaction", "--exit-on-error", ...clean, "--dbname", dbname, file], env);
}
