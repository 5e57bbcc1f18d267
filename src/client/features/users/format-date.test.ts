import { describe, expect, it } from "vitest";
import { formatShortDate } from "./format-date";

describe("formatShortDate", () => {
  it("shows a short month, day and year", () => {
    expect(formatShortDate("2026-11-22T21:30:00.000Z", "UTC")).toBe("Nov 22, 2026");
    expect(formatShortDate("2024-01-05T00:00:00Z", "UTC")).toBe("Jan 5, 2024");
  });

  it("uses the given time zone for the day", () => {
    expect(formatShortDate("2026-11-22T23:30:00Z", "Asia/Tokyo")).toBe("Nov 23, 2026");
  });

  it("gives an empty text for an unreadable timestamp", () => {
    expect(formatShortDate("not a date")).toBe("");
  });
});
