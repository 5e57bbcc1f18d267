import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { expandUpcE, GTIN_MIN_DIGITS, gs1CheckDigit, gtinKey, hasValidCheckDigit, sameBarcode } from "./gtin.js";

/** The GS1 check digit written out independently: odd positions from the right weigh 3. */
function referenceCheckDigit(body: string): number {
  const digits = [...body].reverse().map(Number);
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10;
}

const digits = (min: number, max = min) => fc.stringMatching(new RegExp(`^[0-9]{${min},${max}}$`));
/** A valid GTIN of `length` digits (random body, its check digit). */
const gtin = (length: number) => digits(length - 1).map((body) => `${body}${referenceCheckDigit(body)}`);
const stripZeros = (code: string) => code.replace(/^0+/, "");
const pad14 = (code: string) => code.padStart(14, "0");

/** A UPC-E (number system 0 or 1, 6 digits) with the check digit of its expansion, and that expansion. */
const upcE = fc.tuple(fc.constantFrom("0", "1"), digits(6)).map(([system, d]) => {
  const last = d[5] as string;
  let body: string;
  if ("012".includes(last)) body = `${d.slice(0, 2)}${last}0000${d.slice(2, 5)}`;
  else if (last === "3") body = `${d.slice(0, 3)}00000${d.slice(3, 5)}`;
  else if (last === "4") body = `${d.slice(0, 4)}00000${d[4]}`;
  else body = `${d.slice(0, 5)}0000${last}`;
  const check = referenceCheckDigit(`${system}${body}`);
  return { upcE: `${system}${d}${check}`, upcA: `${system}${body}${check}` };
});

describe("GTIN normalisation: examples", () => {
  it("UPC-A and the EAN-13 a decoder reports for it are one product", () => {
    expect(hasValidCheckDigit("820650853548")).toBe(true);
    expect(gtinKey("820650853548")).toBe("00820650853548");
    expect(gtinKey("0820650853548")).toBe("00820650853548");
    expect(sameBarcode("820650853548", "0820650853548")).toBe(true);
    expect(sameBarcode("00820650853548", "820650853548")).toBe(true);
  });

  it("a code that lost its leading zeros in a spreadsheet is recognised", () => {
    expect(sameBarcode("74427158064", "074427158064")).toBe(true);
    expect(sameBarcode("74427158064", "0074427158064")).toBe(true);
    // 074427158066 looks like one but has a wrong check digit (4 is right): not a GTIN,
    // so it compares exactly, like any other number.
    expect(sameBarcode("74427158066", "074427158066")).toBe(false);
  });

  it("UPC-E expands to its UPC-A", () => {
    expect(expandUpcE("04252614")).toBe("042100005264");
    expect(sameBarcode("04252614", "042100005264")).toBe(true);
    expect(sameBarcode("04252614", "0042100005264")).toBe(true);
    // Lost its leading 0 in a spreadsheet: still the same UPC-E.
    expect(sameBarcode("4252614", "042100005264")).toBe(true);
    // Every expansion rule (last digit 0-2, 3, 4, 5-9).
    expect(expandUpcE("01234505")).toBe("012000003455");
    expect(expandUpcE("01234531")).toBe("012300000451");
    expect(expandUpcE("01234543")).toBe("012340000053");
    expect(expandUpcE("01234565")).toBe("012345000065");
    // Number systems other than 0 and 1, and wrong check digits, are not UPC-E.
    expect(expandUpcE("21234565")).toBeNull();
    expect(expandUpcE("01234564")).toBeNull();
  });

  it("EAN-8 is padded like any GTIN", () => {
    expect(hasValidCheckDigit("96385074")).toBe(true);
    expect(gtinKey("96385074")).toBe("00000096385074");
    expect(sameBarcode("96385074", "000096385074")).toBe(true);
  });

  it("other codes compare exactly", () => {
    for (const code of ["SC-0001", "sc-0001", "ABC-123", "12345", "00042", "820650853547", "0820650853547", "123456789012345"]) {
      expect(gtinKey(code)).toBe(code);
    }
    expect(sameBarcode("SC-0001", "sc-0001")).toBe(false);
    // A wrong check digit is not a GTIN: leading zeros then matter.
    expect(sameBarcode("820650853547", "0820650853547")).toBe(false);
    expect(sameBarcode("00042", "42")).toBe(false);
  });
});

describe("GTIN normalisation: properties", () => {
  it("the check digit is GS1's", () => {
    fc.assert(fc.property(digits(1, 17), (body) => gs1CheckDigit(body) === referenceCheckDigit(body)));
  });

  it("is idempotent: a key is its own key", () => {
    const anyCode = fc.oneof(fc.string({ maxLength: 20 }), digits(0, 16), gtin(8), gtin(12), gtin(13), gtin(14));
    fc.assert(fc.property(anyCode, (code) => gtinKey(gtinKey(code)) === gtinKey(code)));
  });

  it("leaves every code that is not all digits as it is", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 30 }).filter((s) => !/^[0-9]+$/.test(s)),
        (code) => gtinKey(code) === code,
      ),
    );
  });

  it("a GTIN of 12, 13 or 14 digits is the same product with leading zeros added, or removed down to 9 digits", () => {
    fc.assert(
      fc.property(fc.oneof(gtin(12), gtin(13), gtin(14)), fc.nat({ max: 2 }), (code, extra) => {
        const key = gtinKey(code);
        expect(key).toBe(pad14(code));
        if (code.length + extra <= 14) expect(gtinKey(`${"0".repeat(extra)}${code}`)).toBe(key);
        const stripped = stripZeros(code);
        if (stripped.length >= 9) expect(gtinKey(stripped)).toBe(key);
      }),
    );
  });

  it("UPC-A and EAN-13 with a leading 0 are one product (UPC-A = EAN-13 with a leading 0)", () => {
    fc.assert(fc.property(gtin(12), (upcA) => sameBarcode(upcA, `0${upcA}`) && sameBarcode(upcA, `00${upcA}`)));
  });

  it("a UPC-E is its UPC-A expansion, also without its leading 0", () => {
    fc.assert(
      fc.property(upcE, ({ upcE: e, upcA }) => {
        expect(expandUpcE(e)).toBe(upcA);
        expect(gtinKey(e)).toBe(pad14(upcA));
        expect(gtinKey(`0${upcA}`)).toBe(gtinKey(e));
        if (e.startsWith("0")) expect(gtinKey(e.slice(1))).toBe(gtinKey(e));
      }),
    );
  });

  it("different GTINs never share a key", () => {
    const longGtin = fc.oneof(gtin(12), gtin(13), gtin(14));
    fc.assert(
      fc.property(longGtin, longGtin, (a, b) => {
        fc.pre(pad14(a) !== pad14(b));
        return gtinKey(a) !== gtinKey(b);
      }),
    );
  });

  it("one mistyped digit of a GTIN is never the same product", () => {
    fc.assert(
      fc.property(fc.oneof(gtin(8), gtin(12), gtin(13), gtin(14)), fc.nat(), fc.integer({ min: 1, max: 9 }), (code, at, plus) => {
        const i = at % code.length;
        const changed = `${code.slice(0, i)}${(Number(code[i]) + plus) % 10}${code.slice(i + 1)}`;
        return !sameBarcode(code, changed);
      }),
    );
  });

  it("a numeric code without a valid check digit compares exactly", () => {
    fc.assert(
      fc.property(digits(0, 16), (code) => {
        fc.pre(
          code.length < GTIN_MIN_DIGITS || code.length > 14 || (!hasValidCheckDigit(pad14(code)) && !expandUpcE(code.padStart(8, "0"))),
        );
        return gtinKey(code) === code;
      }),
    );
  });

  it("every key is the code itself or a 14-digit GTIN with a valid check digit", () => {
    fc.assert(
      fc.property(fc.oneof(digits(0, 16), gtin(8), gtin(12), gtin(13)), (code) => {
        const key = gtinKey(code);
        return key === code || (key.length === 14 && hasValidCheckDigit(key));
      }),
    );
  });
});
