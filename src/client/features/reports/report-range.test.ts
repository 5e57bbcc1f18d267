import { describe, expect, it } from "vitest";
import { addDays, changeText, dayLabel, daysIn, presetOf, presetRange, rangeFromSearch, todayIn, writeRange } from "./report-range";

describe("report ranges", () => {
  it("presets end today and bucket by day, week or month", () => {
    expect(presetRange("7d", "2026-03-10")).toEqual({ from: "2026-03-04", to: "2026-03-10", by: "day" });
    expect(presetRange("90d", "2026-03-10")).toMatchObject({ from: "2025-12-11", by: "week" });
    expect(presetRange("365d", "2026-03-10")).toMatchObject({ from: "2025-03-11", by: "month" });
    expect(daysIn(presetRange("365d", "2026-03-10"))).toBe(365);
  });

  it("counts days across a daylight-saving change as whole days", () => {
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
    expect(daysIn({ from: "2026-03-07", to: "2026-03-09" })).toBe(3);
  });

  it("today is the shop's day: 23:30 UTC is the next day in Berlin and the same day in New York", () => {
    const now = new Date("2026-07-01T23:30:00Z");
    expect(todayIn("Europe/Berlin", now)).toBe("2026-07-02");
    expect(todayIn("America/New_York", now)).toBe("2026-07-01");
  });

  it("says the change against the range before", () => {
    expect(changeText(120, 100)).toBe("+20%");
    expect(changeText(50, 100)).toBe("-50%");
    expect(changeText(5, 0)).toBe("new");
    expect(changeText(0, 0)).toBe("0%");
  });

  it("labels buckets by their first day, whatever the browser's zone", () => {
    expect(dayLabel("2026-03-08")).toBe("Mar 8");
    expect(dayLabel("2026-03-02", "week")).toBe("Week of Mar 2");
    expect(dayLabel("2026-03-01", "month")).toBe("Mar 2026");
  });

  it("a range is kept in the address's query string, and read back as it was", () => {
    const range = { from: "2026-02-01", to: "2026-02-28", by: "week" as const };
    expect(writeRange(range).toString()).toBe("from=2026-02-01&to=2026-02-28&by=week");
    expect(rangeFromSearch(writeRange(range), "2026-03-10")).toEqual(range);
    // Without a bucket, the presets' for a range that long.
    expect(rangeFromSearch(new URLSearchParams("from=2026-02-01&to=2026-02-28"), "2026-03-10").by).toBe("day");
    expect(rangeFromSearch(new URLSearchParams("from=2025-01-01&to=2025-12-31"), "2026-03-10").by).toBe("month");
  });

  it("an address with no range, or one that is not a range, shows the last 30 days", () => {
    const last30 = presetRange("30d", "2026-03-10");
    for (const query of [
      "",
      "from=2026-02-01",
      "from=2026-02-30&to=2026-03-01",
      "from=2026-03-05&to=2026-03-01",
      "from=yesterday&to=today",
    ]) {
      expect(rangeFromSearch(new URLSearchParams(query), "2026-03-10"), query).toEqual(last30);
    }
  });

  it("a range that is a preset ending today shows as that preset, any other as custom", () => {
    expect(presetOf(presetRange("7d", "2026-03-10"), "2026-03-10")).toBe("7d");
    expect(presetOf(presetRange("7d", "2026-03-09"), "2026-03-10")).toBe("custom");
    expect(presetOf({ ...presetRange("7d", "2026-03-10"), by: "week" }, "2026-03-10")).toBe("custom");
  });
});
