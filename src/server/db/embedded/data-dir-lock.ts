import { closeSync, existsSync, openSync, readFileSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { join, resolve } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const LOCK_FILE = "blez-server.lock";

/**
 * How long a new start waits for the owners of a lock to end before refusing: after a crash or a
 * `kill -9` of the server, its database process notices (its IPC channel closes), closes the
 * database properly and exits, which takes a moment, longer on a busy machine.
 */
export const DEFAULT_LOCK_WAIT_MS = 15_000;
const DEFAULT_POLL_MS = 150;
/** A lock file without an id yet is another server taking it (between creating and writing the file). */
const EMPTY_LOCK_GRACE_MS = 2_000;

export interface LockOptions {
  /** How long to wait for owners that are still exiting before refusing (default 15 s). */
  waitMs?: number;
  /** How often to look again meanwhile. */
  pollMs?: number;
}

/** The folders this process holds: its own id in a lock it does not hold is left from an earlier process. */
const heldHere = new Set<string>();

const hasProc = existsSync("/proc/self/stat");

/**
 * Whether a process with this id is running. A zombie (ended, not yet reaped by its parent: an
 * orphaned database process whose new parent has not collected it yet) is not; on Linux its state
 * in /proc/<pid>/stat says so. Elsewhere kill(pid, 0) (EPERM: it runs under another user).
 */
export function processRunning(pid: number): boolean {
  if (hasProc) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      // "pid (command) S ...": the command may hold spaces and parentheses, the state follows the last ')'.
      const state = stat.slice(stat.lastIndexOf(")") + 1).trim()[0];
      return state !== "Z" && state !== "X";
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ENOENT" || (err as NodeJS.ErrnoException).code === "ESRCH") return false;
      // Not readable (hidepid): ask the kernel instead.
    }
  }
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

function readOwners(path: string): { text: string; owners: number[]; ageMs: number } | null {
  let text: string;
  let ageMs: number;
  try {
    ageMs = Date.now() - statSync(path).mtimeMs;
    text = readFileSync(path, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw err;
  }
  const owners = text
    .split(/\s+/)
    .map(Number)
    .filter((pid) => Number.isInteger(pid) && pid > 0);
  return { text, owners, ageMs };
}

/**
 * One server process per embedded data folder: two PGlite instances on the same files silently
 * overwrite each other's writes. The lock file holds the owners' process ids (the server and its
 * database process); a lock whose owners have all ended is taken over. Owners still running are
 * waited for (`waitMs`, 15 s by default), as a crashed server's database process is still closing;
 * only a lock still held after that is refused. A lock this very process holds is refused at once.
 */
export async function lockDataDir(dataDir: string, opts: LockOptions = {}): Promise<DataDirLock> {
  const waitMs = opts.waitMs ?? DEFAULT_LOCK_WAIT_MS;
  const pollMs = opts.pollMs ?? DEFAULT_POLL_MS;
  const folder = resolve(dataDir);
  const path = join(folder, LOCK_FILE);
  const deadline = Date.now() + waitMs;
  for (;;) {
    try {
      const fd = openSync(path, "wx");
      try {
        writeSync(fd, String(process.pid));
      } finally {
        closeSync(fd);
      }
      heldHere.add(folder);
      const owners = [process.pid];
      let released = false;
      return {
        addOwner(pid) {
          owners.push(pid);
          writeFileSync(path, owners.join(" "));
        },
        release() {
          if (released) return;
          released = true;
          heldHere.delete(folder);
          rmSync(path, { force: true });
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    const lock = readOwners(path);
    if (lock === null) continue; // released meanwhile: try again at once
    const heldByUs = heldHere.has(folder);
    // Our own id in a lock we do not hold was written by an earlier process that had the same id (a container's restart).
    const running = lock.owners.filter((pid) => (pid === process.pid ? heldByUs : processRunning(pid)));
    const beingTaken = lock.owners.length === 0 && lock.ageMs < EMPTY_LOCK_GRACE_MS;
    if (running.length === 0 && !beingTaken) {
      // Taken over only if it is still the lock we judged (another starting server may have just taken it).
      if (readOwners(path)?.text === lock.text) rmSync(path, { force: true });
      continue;
    }
    if (heldByUs || Date.now() >= deadline) {
      throw new Error(
        `The embedded database in ${folder} is already in use by another Blez Inventory server (${running[0] === undefined ? "one starting now" : `process ${running[0]}`}). ` +
          "Stop that server first, or start this one with another DATA_DIR.",
      );
    }
    await sleep(Math.min(pollMs, Math.max(deadline - Date.now(), 1)));
  }
}
