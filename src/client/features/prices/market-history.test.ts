import { describe, expect, it } from "vitest";
import type { ProductMarket } from "../../../contract/prices";
import { ageText, daysBetween } from "./market-age";
import { marketSeries, sparklinePath } from "./market-history";
import { changeText, pricesText } from "./proposal-text";

type Price = ProductMarket["history"][number];
const price = (fields: Partial<Price>): Price => ({
  feed_id: 1,
  feed_name: "Scryfall",
  day: "2026-03-01",
  checked_on: "2026-03-01",
  finish: "normal",
  currency: "USD",
  market: 1000,
  low: null,
  mid: null,
  high: null,
  direct_low: null,
  by_condition: null,
  ...fields,
});

describe("a market price's age", () => {
  it("counts the shop's days", () => {
    expect(daysBetween("2026-02-27", "2026-03-01")).toBe(2);
    expect(ageText("2026-03-01", "2026-03-01")).toBe("today");
    expect(ageText("2026-02-28", "2026-03-01")).toBe("yesterday");
    expect(ageText("2025-03-01", "2026-03-01")).toBe("365 days ago");
    // A feed's day ahead of this screen's (a clock a little behind) is still today.
    expect(ageText("2026-03-02", "2026-03-01")).toBe("today");
  });
});

describe("the market price's history", () => {
  it("is the latest feed's printing, oldest first, held to the day the feed last confirmed it", () => {
    const latest = price({ day: "2026-03-05", checked_on: "2026-03-09", market: 1200 });
    const history = [
      latest,
      price({ feed_id: 2, day: "2026-03-04", market: 5000 }),
      price({ day: "2026-03-03", finish: "foil", market: 4000 }),
      price({ day: "2026-03-02", market: null }),
      price({ day: "2026-03-01", market: 1000 }),
    ];
    expect(marketSeries({ latest, history })).toEqual([
      { day: "2026-03-01", cents: 1000 },
      { day: "2026-03-05", cents: 1200 },
      { day: "2026-03-09", cents: 1200 },
    ]);
    expect(marketSeries({ latest: null, history: [] })).toEqual([]);
  });

  it("draws steps: a price holds until the next change; the highest at the top", () => {
    const path = sparklinePath(
      [
        { day: "2026-03-01", cents: 1000 },
        { day: "2026-03-03", cents: 2000 },
        { day: "2026-03-05", cents: 2000 },
      ],
      104,
      24,
    );
    expect(path).toBe("M2 22 H52 V2 H102 V2");
    expect(sparklinePath([{ day: "2026-03-01", cents: 1000 }], 104, 24)).toBe("M2 12 H102");
    expect(sparklinePath([], 104, 24)).toBe("");
  });
});

describe("the review's words", () => {
  it("says a move with its sign, and a product that had no price", () => {
    expect(changeText(12.5)).toBe("+12.5%");
    expect(changeText(-3)).toBe("-3%");
    expect(changeText(0)).toBe("0%");
    expect(changeText(null)).toBe("No price before");
    expect(pricesText(1)).toBe("1 new price");
    expect(pricesText(1200)).toBe("1,200 new prices");
  });
});
