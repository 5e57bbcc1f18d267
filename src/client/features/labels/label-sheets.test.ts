import { describe, expect, it } from "vitest";
import { copiesOf, LABEL_SHEETS, labelPosition, pageCount, sheetById } from "./label-sheets";

describe("label sheets", () => {
  it("fits every label of a sheet on its page, without overlaps", () => {
    for (const sheet of LABEL_SHEETS) {
      const perPage = sheet.columns * sheet.rows;
      for (let i = 0; i < perPage; i++) {
        const at = labelPosition(sheet, i);
        expect(at.page).toBe(0);
        expect(at.x + sheet.label.width).toBeLessThanOrEqual(sheet.page.width + 1e-9);
        expect(at.y + sheet.label.height).toBeLessThanOrEqual(sheet.page.height + 1e-9);
      }
      expect(sheet.pitch.x).toBeGreaterThanOrEqual(sheet.label.width);
      expect(sheet.pitch.y).toBeGreaterThanOrEqual(sheet.label.height - 1e-9);
      expect(labelPosition(sheet, perPage)).toEqual({ ...labelPosition(sheet, 0), page: 1 });
    }
  });

  it("fills A4 row by row: the 4th label starts the second row, the 31st a new page", () => {
    const a4 = sheetById("a4-3x10");
    expect(labelPosition(a4, 3)).toEqual({ page: 0, x: 0, y: 29.7 });
    expect(labelPosition(a4, 29)).toMatchObject({ page: 0, x: 140 });
    expect(pageCount(a4, 31)).toBe(2);
    expect(pageCount(sheetById("dymo-30334"), 5)).toBe(5);
    expect(labelPosition(sheetById("letter-3x10"), 1).x).toBeCloseTo(0.1875 * 25.4 + 2.75 * 25.4);
  });

  it("takes 1-100 copies", () => {
    expect(copiesOf("3")).toBe(3);
    for (const bad of ["0", "101", "2.5", "", "x"]) expect(copiesOf(bad)).toBeNull();
  });
});
