import { beforeEach, describe, expect, it } from "vitest";
import { readTableSort, readViewMode, storeTableSort, storeViewMode, TABLE_SORT_KEY } from "./view-prefs";

beforeEach(() => localStorage.clear());

describe("inventory view preferences", () => {
  it("the table on wide screens and cards on phones until the user chooses; then the choice", () => {
    expect(readViewMode(true)).toBe("table");
    expect(readViewMode(false)).toBe("grid");
    storeViewMode("grid");
    expect(readViewMode(true)).toBe("grid");
  });

  it("remembers the table's sort; ignores anything else stored there", () => {
    expect(readTableSort()).toEqual([]);
    storeTableSort([{ id: "quantity_on_hand", desc: true }]);
    expect(readTableSort()).toEqual([{ id: "quantity_on_hand", desc: true }]);
    localStorage.setItem(TABLE_SORT_KEY, '[{"id":"password","desc":true}]');
    expect(readTableSort()).toEqual([]);
    localStorage.setItem(TABLE_SORT_KEY, "{");
    expect(readTableSort()).toEqual([]);
  });
});
