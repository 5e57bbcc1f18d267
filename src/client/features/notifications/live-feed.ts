import type { InventoryUpdate } from "../../../contract/events";

/** Changes by one user to one product within this long show as one line ("sam sold 6 x ..."). */
export const GROUP_WINDOW_MS = 4000;
/** The activity list keeps the last 50 changes. */
export const ACTIVITY_MAX = 50;

export interface FeedEntry {
  /** Stable while the entry grows: the toast of a group is updated in place. */
  id: string;
  /** What groups: one user, one product, one kind of change. */
  group: string;
  type: InventoryUpdate["type"];
  who: string;
  name: string;
  /** Sum of the grouped stock changes. */
  change: number;
  /** Changes in the group. */
  count: number;
  stock?: number;
  isActive?: boolean;
  imported?: number;
  /** When the latest grouped change arrived (ms). */
  at: number;
}

/** One line for an entry, e.g. "sam sold 6 x Paldean Fates ETB, 2 left". */
export function describeEntry(e: FeedEntry): string {
  switch (e.type) {
    case "quantity_changed": {
      if (e.change < 0) return `${e.who} sold ${-e.change} x ${e.name}${e.stock === undefined ? "" : `, ${e.stock} left`}`;
      if (e.change > 0) return `${e.who} added ${e.change} x ${e.name}${e.stock === undefined ? "" : `, ${e.stock} in stock`}`;
      return `${e.who} changed the stock of ${e.name}${e.stock === undefined ? "" : `, ${e.stock} in stock`}`;
    }
    case "product_created":
      return `${e.who} added a new product: ${e.name}`;
    case "product_updated":
      return e.count > 1 ? `${e.who} updated ${e.name} (${e.count} edits)` : `${e.who} updated ${e.name}`;
    case "status_changed":
      return `${e.who} ${e.isActive === false ? "disabled" : "enabled"} ${e.name}`;
    case "products_imported":
      return `${e.who} imported products (${e.imported ?? 0} changed)`;
    default:
      return `${e.who} changed the inventory`;
  }
}

let seq = 0;

/**
 * The live changes of other users: grouped per user and product within GROUP_WINDOW_MS, newest
 * first, the last ACTIVITY_MAX kept. An external store for React (subscribe/getEntries).
 */
export class LiveFeed {
  private entries: FeedEntry[] = [];
  private readonly listeners = new Set<() => void>();

  constructor(private readonly now: () => number = Date.now) {}

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  getEntries = (): readonly FeedEntry[] => this.entries;

  /** A change: merged into the group it continues, else a new entry. Answers the entry to show. */
  push(update: InventoryUpdate): FeedEntry {
    const { data } = update;
    const at = this.now();
    const productId = data.product?.id ?? data.id;
    const group =
      update.type === "products_imported" ? `import:${++seq}` : `${update.type}:${update.userId}:${productId ?? data.product_name}`;
    const name = data.product?.product_name ?? data.product_name ?? "a product";
    const stock = data.product?.quantity_on_hand ?? data.quantity_on_hand;
    const isActive = data.product?.is_active ?? data.is_active;
    const last = this.entries.find((e) => e.group === group);
    let entry: FeedEntry;
    if (last && at - last.at <= GROUP_WINDOW_MS) {
      entry = { ...last, name, change: last.change + (data.quantity_change ?? 0), count: last.count + 1, stock, isActive, at };
      this.entries = [entry, ...this.entries.filter((e) => e !== last)];
    } else {
      entry = {
        id: `live-${++seq}`,
        group,
        type: update.type,
        who: data.updated_by || "Someone",
        name,
        change: data.quantity_change ?? 0,
        count: 1,
        stock,
        isActive,
        imported: data.count,
        at,
      };
      this.entries = [entry, ...this.entries].slice(0, ACTIVITY_MAX);
    }
    for (const listener of this.listeners) listener();
    return entry;
  }
}

const mutedKey = (userId: number) => `blez-live-muted-${userId}`;

/** Whether this user muted live toasts (remembered in this browser). */
export function readMuted(userId: number): boolean {
  try {
    return localStorage.getItem(mutedKey(userId)) === "1";
  } catch {
    return false;
  }
}

export function storeMuted(userId: number, muted: boolean): void {
  try {
    localStorage.setItem(mutedKey(userId), muted ? "1" : "0");
  } catch {
    // storage unavailable: the choice lasts for this page
  }
}
