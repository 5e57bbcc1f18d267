import { describe, expect, it } from "vitest";
import { centsToAmount, formatMoney, parseAmount } from "./money.js";
import { MONEY_MAX_CENTS } from "./rules.js";

describe("parseAmount", () => {
  it.each([
    ["12.50", 1250],
    ["12.5", 1250],
    ["12", 1200],
    ["0", 0],
    ["0.07", 7],
    [" 7.00 ", 700],
    ["$1,234.50", 123450],
    ["€ 3", 300],
    ["10000000.00", MONEY_MAX_CENTS],
  ])("reads %j as %i cents", (text, cents) => {
    expect(parseAmount(text)).toBe(cents);
  });

  it.each(["", "-1", "12.505", ".50", "12,50", "1,23.00", "abc", "10000000.01", "1e3", "12.50 USD"])("refuses %j", (text) => {
    expect(parseAmount(text)).toBeUndefined();
  });

  it("round-trips every amount it writes", () => {
    for (const cents of [0, 1, 9, 10, 99, 100, 1250, 123456, MONEY_MAX_CENTS]) {
      expect(parseAmount(centsToAmount(cents))).toBe(cents);
    }
  });

  it.each([
    [-150, "-1.50"],
    [-5, "-0.05"],
    [-100, "-1.00"],
    [-123456, "-1234.56"],
  ])("writes a loss of %i cents with its sign, %j", (cents, text) => {
    expect(centsToAmount(cents)).toBe(text);
  });
});

describe("formatMoney", () => {
  it("shows cents in the shop's currency", () => {
    expect(formatMoney(1250, "USD", "en-US")).toBe("$12.50");
    expect(formatMoney(0, "USD", "en-US")).toBe("$0.00");
    expect(formatMoney(123450, "EUR", "de-DE")).toBe("1.234,50\u00a0€");
  });
});
