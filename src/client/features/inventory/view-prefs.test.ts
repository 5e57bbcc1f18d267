import { beforeEach, describe, expect, it } from "vitest";
import { readTableSort, readViewMode, sortFromSearch, storeTableSort, storeViewMode, TABLE_SORT_KEY, writeSort } from "./view-prefs";

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

  it("names the sort in the address's query string: a column, '-' for the other way; none leaves it out", () => {
    const query = (sorting: Parameters<typeof writeSort>[0]) => {
      const params = new URLSearchParams();
      writeSort(sorting, params);
      return params.toString();
    };
    expect(query([{ id: "vendor", desc: false }])).toBe("sort=vendor");
    expect(query([{ id: "quantity_on_hand", desc: true }])).toBe("sort=-quantity_on_hand");
    expect(query([])).toBe("");
    expect(sortFromSearch(new URLSearchParams("sort=-quantity_on_hand"))).toEqual([{ id: "quantity_on_hand", desc: true }]);
    expect(sortFromSearch(new URLSearchParams("sort=vendor"))).toEqual([{ id: "vendor", desc: false }]);
    // Nothing, or a column the table does not sort by: the address names no sort.
    expect(sortFromSearch(new URLSearchParams(""))).toBeUndefined();
    expect(sortFromSearch(new URLSearchParams("sort=-password"))).toBeUndefined();
  });
});
