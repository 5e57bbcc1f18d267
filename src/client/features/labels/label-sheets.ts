/** Label stock a shop prints on, and where each label sits on its page. All lengths in millimetres. */

export interface LabelSheet {
  id: "dymo-30334" | "a4-3x10" | "letter-3x10";
  name: string;
  page: { width: number; height: number };
  label: { width: number; height: number };
  columns: number;
  rows: number;
  /** The first label's top-left corner on the page. */
  margin: { left: number; top: number };
  /** Distance between the left (top) edges of neighbouring labels. */
  pitch: { x: number; y: number };
}

const INCH = 25.4;

export const LABEL_SHEETS: readonly LabelSheet[] = [
  {
    // A Dymo LabelWriter roll: one label per page, the page is the label.
    id: "dymo-30334",
    name: "Dymo 30334 (57 x 32 mm)",
    page: { width: 57, height: 32 },
    label: { width: 57, height: 32 },
    columns: 1,
    rows: 1,
    margin: { left: 0, top: 0 },
    pitch: { x: 57, y: 32 },
  },
  {
    // 30 labels of 70 x 29.7 mm, edge to edge (the common A4 3 x 10 sheet).
    id: "a4-3x10",
    name: "A4 sheet, 3 x 10 (70 x 29.7 mm)",
    page: { width: 210, height: 297 },
    label: { width: 70, height: 29.7 },
    columns: 3,
    rows: 10,
    margin: { left: 0, top: 0 },
    pitch: { x: 70, y: 29.7 },
  },
  {
    // Address labels of 2 5/8 x 1 in (the Avery 5160 layout).
    id: "letter-3x10",
    name: "Letter sheet, 3 x 10 (2 5/8 x 1 in)",
    page: { width: 8.5 * INCH, height: 11 * INCH },
    label: { width: 2.625 * INCH, height: 1 * INCH },
    columns: 3,
    rows: 10,
    margin: { left: 0.1875 * INCH, top: 0.5 * INCH },
    pitch: { x: 2.75 * INCH, y: 1 * INCH },
  },
];

export function sheetById(id: string): LabelSheet {
  return LABEL_SHEETS.find((s) => s.id === id) ?? (LABEL_SHEETS[0] as LabelSheet);
}

/** Where label `index` (0-based, filled row by row) goes: its page and its top-left corner on it. */
export function labelPosition(sheet: LabelSheet, index: number): { page: number; x: number; y: number } {
  const perPage = sheet.columns * sheet.rows;
  const onPage = index % perPage;
  return {
    page: Math.floor(index / perPage),
    x: sheet.margin.left + (onPage % sheet.columns) * sheet.pitch.x,
    y: sheet.margin.top + Math.floor(onPage / sheet.columns) * sheet.pitch.y,
  };
}

export function pageCount(sheet: LabelSheet, labels: number): number {
  return Math.ceil(labels / (sheet.columns * sheet.rows));
}

export const COPIES_MIN = 1;
export const COPIES_MAX = 100;

/** Copies as typed: a whole number within 1-100, else null. */
export function copiesOf(text: string): number | null {
  const n = Number(text.trim());
  return Number.isInteger(n) && n >= COPIES_MIN && n <= COPIES_MAX && text.trim() !== "" ? n : null;
}
