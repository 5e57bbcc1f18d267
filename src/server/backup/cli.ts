/**
 * `npm run backup -- FILE` and `npm run restore -- FILE [--force]`: the embedded database in
 * DATA_DIR, or the PostgreSQL database in DATABASE_URL when it is set, and the photos in
 * MEDIA_DIR, in one file (see README, Backups).
 */
import { resolve } from "node:path";
import { loadConfig, mediaDirOf } from "../config.js";
import { BackupError, summaryText } from "./embedded-backup.js";
import { type BackupOutcome, backupShop, restoreShop } from "./shop-backup.js";

const USAGE = "usage: npm run backup -- FILE\n       npm run restore -- FILE [--force]";

function contents(outcome: BackupOutcome): string {
  const photos = `${outcome.photoFiles} photo files`;
  return outcome.summary ? `${summaryText(outcome.summary)}, ${photos}` : photos;
}

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
  const location = { databaseUrl: config.DATABASE_URL, dataDir: resolve(config.DATA_DIR), mediaDir: resolve(mediaDirOf(config)) };
  const where = config.DATABASE_URL ? "the PostgreSQL database (DATABASE_URL)" : `the embedded database in ${location.dataDir}`;
  if (command === "backup") {
    const outcome = await backupShop(location, target);
    return `Backed up ${where} and the photos in ${location.mediaDir} to ${target} (${contents(outcome)}).`;
  }
  const outcome = await restoreShop(location, target, { force });
  const aside = outcome.movedAside ? `\nThe database it replaced was moved to ${outcome.movedAside}.` : "";
  return `Restored ${target} into ${where} and ${location.mediaDir} (${contents(outcome)}).${aside}\nStart the server as usual.`;
}

main(process.argv.slice(2)).then(
  (message) => console.log(message),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  },
);
