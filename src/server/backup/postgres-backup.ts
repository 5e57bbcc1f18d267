import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { open } from "node:fs/promises";
import { resolve } from "node:path";
import pg from "pg";
import { MEDIA_BACKUP_LOCK } from "../modules/photos/media-store.js";
import { BackupError } from "./embedded-backup.js";
import { PRIVATE_FILE } from "./tar.js";

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

/** Runs a tool; its standard output goes to `stdout` (a file descriptor) when given. */
function run(tool: string, args: string[], env: NodeJS.ProcessEnv, stdout: number | "inherit" = "inherit"): Promise<void> {
  return new Promise((done, fail) => {
    const child = spawn(tool, args, { env, stdio: ["ignore", stdout, "pipe"] });
    let stderr = "";
    child.stderr?.on("data", (d) => {
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

/**
 * Writes `pg_dump --format=custom` of the database to `file`, through its standard output into a
 * file this process made 0600 (the dump holds password hashes and webhook secrets; pg_dump's own
 * `--file` would take the umask's mode).
 */
export async function backupPostgres(url: string, file: string): Promise<void> {
  const { dbname, env } = connection(url);
  const out = await open(file, "w", PRIVATE_FILE);
  try {
    await out.chmod(PRIVATE_FILE);
    await run("pg_dump", ["--format=custom", "--no-owner", "--dbname", dbname], env, out.fd);
  } finally {
    await out.close();
  }
}

/**
 * Holds MEDIA_BACKUP_LOCK on a connection of its own until the answer is called: the servers on
 * this database put off deleting photo files meanwhile (modules/photos/photo-files.ts), so a
 * backup copies every file its dump names. Waits for clean-ups under way to end (they are short).
 */
export async function holdPhotoFiles(url: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 10_000 });
  client.on("error", () => {}); // a lost connection ends the lock with it; the dump reports the outage
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1::int, 0)", [MEDIA_BACKUP_LOCK]);
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
  // Ending the session releases the lock.
  return () => client.end().catch(() => {});
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
