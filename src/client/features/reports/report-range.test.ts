import { describe, expect, it } from "vitest";
import { addDays, changeText, dayLabel, daysIn, presetRange, todayIn } from "./report-range";

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
});
