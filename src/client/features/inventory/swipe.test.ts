import { describe, expect, it } from "vitest";
import { isHorizontalDrag, swipeAction, swipeEnabled, swipeHint, swipeOffset } from "./swipe";

describe("swipe (threshold 50 px, offset cap 100 px, hint at 30 px)", () => {
  it("caps the visual offset at 100 px each way", () => {
    expect(swipeOffset(0)).toBe(0);
    expect(swipeOffset(42)).toBe(42);
    expect(swipeOffset(100)).toBe(100);
    expect(swipeOffset(250)).toBe(100);
    expect(swipeOffset(-250)).toBe(-100);
  });

  it("shows the hint beyond 30 px: right edits, left toggles", () => {
    expect(swipeHint(30)).toBeNull();
    expect(swipeHint(-30)).toBeNull();
    expect(swipeHint(31)).toBe("edit");
    expect(swipeHint(-31)).toBe("toggle");
  });

  it("triggers beyond 50 px only", () => {
    expect(swipeAction(50)).toBeNull();
    expect(swipeAction(-50)).toBeNull();
    expect(swipeAction(51)).toBe("edit");
    expect(swipeAction(-51)).toBe("toggle");
    expect(swipeAction(400)).toBe("edit");
  });

  it("is only for product managers and active products", () => {
    expect(swipeEnabled(true, true)).toBe(true);
    expect(swipeEnabled(false, true)).toBe(false);
    expect(swipeEnabled(true, false)).toBe(false);
  });

  it("tells a sideways drag from a scroll", () => {
    expect(isHorizontalDrag(20, 3)).toBe(true);
    expect(isHorizontalDrag(3, 20)).toBe(false);
    expect(isHorizontalDrag(5, 0)).toBe(false);
  });
});
