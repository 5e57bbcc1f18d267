import { closeSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";

const LOCK_FILE = "blez-server.lock";

/** Whether a process with this id is running (EPERM: it runs under another user). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

export interface DataDirLock {
  /** Adds a process (the database's own) that must have ended before the folder is free again. */
  addOwner(pid: number): void;
  release(): void;
}

/**
 * One server process per embedded data folder: two PGlite instances on the same files silently
 * overwrite each other's writes. The lock file holds the owners' process ids (the server and its
 * database process); a lock whose owners all stopped running is taken over.
 */
export function lockDataDir(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      const owners = [process.pid];
      return {
        addOwner(pid) {
          owners.push(pid);
          writeFileSync(path, owners.join(" "));
        },
        release: () => rmSync(path, { force: true }),
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owners = readFileSync(path, "utf8")
        .split(/\s+/)
        .map(Number)
        .filter((pid) => Number.isInteger(pid) && pid > 0);
      const owner = owners.find(alive);
      if (owner !== undefined) {
        throw new Error(
          `The embedded database in ${resolve(dataDir)} is already in use by another Blez Inventory server (process ${owner}). ` +
            "Stop that server first, or start this one with another DATA_DIR.",
        );
      }
      rmSync(path, { force: true });
    }
  }
  throw new Error(`Could not lock the embedded database folder ${resolve(dataDir)}`);
}
