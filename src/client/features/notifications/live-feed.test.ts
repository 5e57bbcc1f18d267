import { describe, expect, it } from "vitest";
import type { InventoryUpdate } from "../../../contract/events";
import { ACTIVITY_MAX, describeEntry, GROUP_WINDOW_MS, LiveFeed, readMuted, storeMuted } from "./live-feed";

const at = "2026-01-01T00:00:00.000Z";
const sale = (stock: number, userId = 2, id = 1, by = "sam"): InventoryUpdate => ({
  type: "quantity_changed",
  data: { id, product_name: "Paldean Fates ETB", updated_by: by, quantity_change: -1, quantity_on_hand: stock },
  timestamp: at,
  userId,
});

describe("LiveFeed", () => {
  it("six sales by one user within the window are one line: 'sam sold 6 x Paldean Fates ETB, 2 left'", () => {
    let t = 0;
    const feed = new LiveFeed(() => t);
    const ids = new Set<string>();
    for (let stock = 7; stock >= 2; stock--) {
      ids.add(feed.push(sale(stock)).id);
      t += 500;
    }
    expect(ids.size).toBe(1);
    expect(feed.getEntries()).toHaveLength(1);
    expect(describeEntry(feed.getEntries()[0] ?? ({} as never))).toBe("sam sold 6 x Paldean Fates ETB, 2 left");
  });

  it("another user, another product or a pause starts a new line", () => {
    let t = 0;
    const feed = new LiveFeed(() => t);
    feed.push(sale(9));
    feed.push(sale(8, 3, 1, "kim"));
    feed.push(sale(8, 2, 5));
    t += GROUP_WINDOW_MS + 1;
    feed.push(sale(7));
    expect(feed.getEntries().map(describeEntry)).toEqual([
      "sam sold 1 x Paldean Fates ETB, 7 left",
      "sam sold 1 x Paldean Fates ETB, 8 left",
      "kim sold 1 x Paldean Fates ETB, 8 left",
      "sam sold 1 x Paldean Fates ETB, 9 left",
    ]);
  });

  it("keeps the last 50 changes", () => {
    let t = 0;
    const feed = new LiveFeed(() => t);
    for (let i = 0; i < 60; i++) {
      feed.push(sale(10, 2, i));
      t += 1;
    }
    expect(feed.getEntries()).toHaveLength(ACTIVITY_MAX);
  });

  it("says who changed what for every kind of change", () => {
    const feed = new LiveFeed(() => 0);
    const line = (u: InventoryUpdate) => describeEntry(feed.push(u));
    expect(
      line({
        type: "status_changed",
        data: { id: 1, product_name: "Card", updated_by: "kim", is_active: false },
        timestamp: at,
        userId: 3,
      }),
    ).toBe("kim disabled Card");
    expect(line({ type: "products_imported", data: { updated_by: "kim", count: 12 }, timestamp: at, userId: 3 })).toBe(
      "kim imported products (12 changed)",
    );
    expect(line({ type: "product_created", data: { id: 9, product_name: "New", updated_by: "kim" }, timestamp: at, userId: 3 })).toBe(
      "kim added a new product: New",
    );
    expect(
      line({
        type: "quantity_changed",
        data: { id: 4, product_name: "Box", updated_by: "kim", quantity_change: 24, quantity_on_hand: 30 },
        timestamp: at,
        userId: 3,
      }),
    ).toBe("kim added 24 x Box, 30 in stock");
  });

  it("remembers muting per user", () => {
    storeMuted(7, true);
    expect(readMuted(7)).toBe(true);
    expect(readMuted(8)).toBe(false);
  });
});
