import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { PASSWORD_REQUIREMENTS, scorePassword, strengthChecks, strengthLevel } from "./password-strength";

describe("strengthLevel", () => {
  it("maps every score to the spec's tier: up to 2 Weak, up to 4 Medium, up to 6 Strong, 7 Very Strong", () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map(strengthLevel)).toEqual([
      "Weak",
      "Weak",
      "Weak",
      "Medium",
      "Medium",
      "Strong",
      "Strong",
      "Very Strong",
    ]);
  });
});

describe("scorePassword", () => {
  it.each([
    ["", 0, "Weak"],
    ["abc", 1, "Weak"], // lowercase
    ["abcdefgh", 2, "Weak"], // lowercase + length 8 (upper tier edge of Weak)
    ["Abcdefgh", 3, "Medium"], // + uppercase (lower edge of Medium)
    ["Abcdefg1", 4, "Medium"], // + digit (upper edge of Medium)
    ["Abcdefg1!", 5, "Strong"], // + special (lower edge of Strong)
    ["Abcdefg1!xyz", 6, "Strong"], // + length 12 (upper edge of Strong)
    ["Abcdefg1!xyzwvut", 7, "Very Strong"], // + length 16
  ])("%j scores %i (%s)", (password, score, level) => {
    expect(scorePassword(password)).toMatchObject({ score, level });
  });

  it("counts each length tier exactly at 8, 12 and 16 characters", () => {
    const at = (n: number) => strengthChecks("a".repeat(n));
    expect(at(7)).toMatchObject({ length8: false, length12: false, length16: false });
    expect(at(8)).toMatchObject({ length8: true, length12: false, length16: false });
    expect(at(11)).toMatchObject({ length8: true, length12: false });
    expect(at(12)).toMatchObject({ length8: true, length12: true, length16: false });
    expect(at(15)).toMatchObject({ length16: false });
    expect(at(16)).toMatchObject({ length8: true, length12: true, length16: true });
  });

  it("recognises each character class on its own", () => {
    expect(strengthChecks("A")).toMatchObject({ uppercase: true, lowercase: false, digit: false, special: false });
    expect(strengthChecks("a")).toMatchObject({ uppercase: false, lowercase: true, digit: false, special: false });
    expect(strengthChecks("7")).toMatchObject({ uppercase: false, lowercase: false, digit: true, special: false });
    expect(strengthChecks("#")).toMatchObject({ uppercase: false, lowercase: false, digit: false, special: true });
    expect(strengthChecks(" ")).toMatchObject({ special: true });
    // Letters beyond ASCII count as letters, not as special characters.
    expect(strengthChecks("Éé")).toMatchObject({ uppercase: true, lowercase: true, special: false });
  });

  it("counts characters, not UTF-16 units, for the length tiers", () => {
    expect(strengthChecks("😀".repeat(7)).length8).toBe(false);
    expect(strengthChecks("😀".repeat(8)).length8).toBe(true);
  });

  it("score is always the number of passed checks, 0 to 7, and the level follows it", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (password) => {
        const result = scorePassword(password);
        expect(result.score).toBe(Object.values(result.checks).filter(Boolean).length);
        expect(result.score).toBeGreaterThanOrEqual(0);
        expect(result.score).toBeLessThanOrEqual(7);
        expect(result.level).toBe(strengthLevel(result.score));
      }),
    );
  });

  it("adding a character never lowers the score", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), fc.string({ minLength: 1, maxLength: 1 }), (password, extra) => {
        expect(scorePassword(password + extra).score).toBeGreaterThanOrEqual(scorePassword(password).score);
      }),
    );
  });
});

describe("PASSWORD_REQUIREMENTS", () => {
  it("lists 8 characters, uppercase, lowercase, number and special character", () => {
    expect(PASSWORD_REQUIREMENTS.map((r) => r.check)).toEqual(["length8", "uppercase", "lowercase", "digit", "special"]);
  });
});
