/**
 * `npm run backup -- FILE` and `npm run restore -- FILE [--force]`: the embedded database in
 * DATA_DIR, or the PostgreSQL database in DATABASE_URL when it is set (see README, Backups).
 */
import { resolve } from "node:path";
import { loadConfig } from "../config.js";
import { BackupError, backupDataDir, restoreDataDir, summaryText } from "./embedded-backup.js";
import { backupPostgres, restorePostgres } from "./postgres-backup.js";

const USAGE = "usage: npm run backup -- FILE\n       npm run restore -- FILE [--force]";

async function main(argv: string[]): Promise<string> {
  const [command, ...rest] = argv;
  const force = rest.includes("--force");
  const files = rest.filter((a) => !a.startsWith("--"));
  const unknown = rest.filter((a) => a.startsWith("--") && a !== "--force");
  const file = files[0];
  if ((command !== "backup" && command !== "restore") || !file || files.length > 1 || unknown.length > 0) {
    throw new BackupError(USAGE);
  }
  const config = loadConfig();
  const target = resolve(file);
  if (config.DATABASE_URL) {
    if (command === "backup") {
      await backupPostgres(config.DATABASE_URL, target);
      return `Backed up the PostgreSQL database (DATABASE_URL) to ${target}.`;
    }
    await restorePostgres(config.DATABASE_URL, target, { force });
    return `Restored ${target} into the PostgreSQL database (DATABASE_URL).`;
  }
  const dataDir = resolve(config.DATA_DIR);
  if (command === "backup") {
    const summary = await backupDataDir(dataDir, target);
    return `Backed up the embedded database in ${dataDir} to ${target} (${summaryText(summary)}).`;
  }
  const { summary, movedAside } = await restoreDataDir(dataDir, target, { force });
  const aside = movedAside ? `\nThe database it replaced was moved to ${movedAside}.` : "";
  return `Restored ${target} into ${dataDir} (${summaryText(summary)}).${aside}\nStart the server as usual.`;
}

main(process.argv.slice(2)).then(
  (message) => console.log(message),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
