import { describe, expect, it } from "vitest";
import { auditSearch, auditValue, formatTimestamp, sinceFor } from "./audit-filters";

describe("audit filters", () => {
  const now = new Date(2026, 2, 15, 14, 30, 0); // 15 March 2026, 14:30 local

  it("turns the date filter into a start time: all, today, last 7 days, last month", () => {
    expect(sinceFor("all", now)).toBeNull();
    expect(sinceFor("today", now)).toBe(new Date(2026, 2, 15, 0, 0, 0).toISOString());
    expect(sinceFor("week", now)).toBe(new Date(2026, 2, 8, 14, 30, 0).toISOString());
    expect(sinceFor("month", now)).toBe(new Date(2026, 1, 15, 14, 30, 0).toISOString());
  });

  it("sends user_id and since to the server", () => {
    expect(auditSearch({ userId: null, since: null })).toBe("");
    expect(auditSearch({ userId: 7, since: null })).toBe("?user_id=7");
    expect(auditSearch({ userId: 7, since: "2026-03-15T00:00:00.000Z" })).toBe("?user_id=7&since=2026-03-15T00%3A00%3A00.000Z");
    expect(auditSearch({ userId: null, since: null, limit: 100 })).toBe("");
    expect(auditSearch({ userId: null, since: null, limit: 300 })).toBe("?limit=300");
    expect(auditSearch({ userId: 7, since: null, limit: 101, offset: 200 })).toBe("?user_id=7&limit=101&offset=200");
  });

  it("shows statuses as words and blanks as a dash; dates as short month, day, year", () => {
    expect(auditValue("is_active", false)).toBe("Disabled");
    expect(auditValue("is_active", true)).toBe("Active");
    expect(auditValue("release_year", null)).toBe("—");
    expect(auditValue("quantity_on_hand", 0)).toBe("0");
    expect(formatTimestamp(new Date(2026, 2, 5, 9, 7).toISOString())).toMatch(/^Mar 5, 2026, 9:07\sAM$/);
  });
});
