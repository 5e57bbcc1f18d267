import type { ScanInput } from "../../../contract/stock-takes";

/**
 * The scans of one stock take this browser has not had answered yet, in the order they were
 * made, kept in localStorage (a reload or a closed tab loses none), as the streamer's taps wait
 * in their queue. Each has its client_scan_id: the server counts an id once and answers a replay
 * with its first answer, so sending one again after a lost answer is safe.
 */
export interface QueuedScan extends ScanInput {
  client_scan_id: string;
  quantity: number;
}

const keyOf = (userId: number, stockTakeId: number) => `blez-stock-take-scans:${userId}:${stockTakeId}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

export function readQueue(userId: number, stockTakeId: number): QueuedScan[] {
  const raw = storage()?.getItem(keyOf(userId, stockTakeId));
  if (!raw) return [];
  try {
    const parsed = JSON.parse(raw) as unknown;
    return Array.isArray(parsed) ? (parsed as QueuedScan[]) : [];
  } catch {
    return [];
  }
}

export function writeQueue(userId: number, stockTakeId: number, scans: QueuedScan[]): void {
  const s = storage();
  if (!s) return;
  try {
    if (scans.length === 0) s.removeItem(keyOf(userId, stockTakeId));
    else s.setItem(keyOf(userId, stockTakeId), JSON.stringify(scans));
  } catch {
    // A full storage: the scans stay in memory for this page.
  }
}

/** A new scan's id: a UUID where the browser has one (secure pages), else random enough for one device. */
export function newScanId(): string {
  if (typeof crypto !== "undefined" && typeof crypto.randomUUID === "function") return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}
