import { describe, expect, it } from "vitest";
import { ADJUST_MESSAGES, planAdjustment, reasonText } from "./adjust-stock";

const base = { note: "", stock: 10 } as const;

describe("planAdjustment", () => {
  it("adds or removes an amount with the reason's label", () => {
    expect(planAdjustment({ ...base, mode: "add", value: "24", reason: "received" })).toEqual({
      ok: true,
      change: 24,
      after: 34,
      reason: "Received",
    });
    expect(planAdjustment({ ...base, mode: "remove", value: "1", reason: "damaged", note: " water " })).toEqual({
      ok: true,
      change: -1,
      after: 9,
      reason: "Damaged: water",
    });
  });

  it("a count sends the change from the stock it started from, and that stock", () => {
    expect(planAdjustment({ ...base, mode: "count", value: "7", reason: "recount" })).toEqual({
      ok: true,
      change: -3,
      after: 7,
      reason: "Recount",
      expected: 10,
    });
    expect(planAdjustment({ ...base, mode: "count", value: "10", reason: "recount" })).toEqual({
      ok: false,
      error: ADJUST_MESSAGES.noChange,
    });
    expect(planAdjustment({ ...base, mode: "count", value: "0", reason: "recount" })).toMatchObject({ ok: true, change: -10 });
  });

  it("refuses amounts that are not whole numbers of 1 or more, removing more than the stock, and 'Other' without a note", () => {
    for (const value of ["", "0", "-2", "1.5", "abc"]) {
      expect(planAdjustment({ ...base, mode: "add", value, reason: "received" })).toEqual({ ok: false, error: ADJUST_MESSAGES.amount });
    }
    expect(planAdjustment({ ...base, mode: "remove", value: "11", reason: "lost" })).toEqual({ ok: false, error: ADJUST_MESSAGES.tooMuch });
    expect(planAdjustment({ ...base, mode: "count", value: "-1", reason: "recount" })).toEqual({
      ok: false,
      error: ADJUST_MESSAGES.counted,
    });
    expect(planAdjustment({ ...base, mode: "add", value: "1", reason: "other" })).toEqual({ ok: false, error: ADJUST_MESSAGES.note });
    expect(planAdjustment({ ...base, mode: "add", value: "1", reason: "other", note: "found in back room" })).toMatchObject({
      ok: true,
      reason: "Other: found in back room",
    });
  });

  it("keeps the reason within 200 characters", () => {
    expect(reasonText("other", "x".repeat(300))).toHaveLength(200);
  });
});
