import type { ReviewLine, StockTakeReview } from "../../../contract/stock-takes";
import { newPdf, printable } from "../../lib/pdf";
import { STATUS_LABELS } from "./components/status-badge";

/**
 * A stock take's report as a PDF (issue 41: "a finished session keeps its report (CSV and PDF)"),
 * made in the browser from the review's answer as the CSV is. Two layers: `reviewPdfPages` lays
 * the report out as positioned lines of text, page by page (tests read them), and `reviewPdf`
 * draws exactly those with pdf-lib, which loads only then.
 */

/** Each review line's state as the report says it. */
export const LINE_STATUS_LABELS: Record<ReviewLine["status"], string> = {
  counted: "Counted",
  missing: "Never scanned",
  misplaced: "Found elsewhere",
  unknown: "Unknown barcode",
};

/** Cents as the shop writes money (the screens' formatter). */
export type Money = (cents: number) => string;

export interface ReviewPdfOptions {
  /** The shop's locations, to name those of the scope (else "location #id"). */
  locations?: ReadonlyArray<{ id: number; name: string }>;
  /** When the report is made (printed on it); now by default. */
  madeAt?: Date;
  /** How a date shows; the browser's own format by default, as the screens show it. */
  formatDate?: (date: Date) => string;
}

/** One text drawn at (x, y) in points from the page's bottom left; `right`: x is where the text ends. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  size: number;
  bold: boolean;
  right?: boolean;
}

/** A rule drawn under a table's header. */
export interface PlacedRule {
  x1: number;
  x2: number;
  y: number;
}

export interface ReportPage {
  texts: PlacedText[];
  rules: PlacedRule[];
}

/** How wide a text is in points at a size, in the regular or the bold font. */
export type Measure = (text: string, size: number, bold: boolean) => number;

/** A4 landscape: the lines table's eleven columns fit across it at 8 points. */
export const PAGE = { width: 841.89, height: 595.28, margin: 36 } as const;
const SIZE = 8;
const ROW = 11;
const GAP = 4;

interface ColumnSpec<T> {
  label: string;
  width: number;
  right?: boolean;
  cell: (row: T) => string;
}

const signed = (n: number) => (n > 0 ? `+${n}` : String(n));

/** The lines table's columns, left to right (widths in points, gaps between them). */
function lineColumns(review: StockTakeReview, money: Money): ColumnSpec<ReviewLine>[] {
  const approved = review.stock_take.status === "approved";
  const cents = (v: number | null) => (v === null ? "" : money(v));
  return [
    { label: "Name", width: 156, cell: (l) => l.name ?? "(unknown barcode)" },
    { label: "Barcode", width: 74, cell: (l) => l.barcode },
    { label: "Location", width: 66, cell: (l) => l.location ?? "" },
    { label: "Found in", width: 66, cell: (l) => l.found_in.map((f) => f || "No location").join(", ") },
    { label: "Status", width: 72, cell: (l) => LINE_STATUS_LABELS[l.status] },
    { label: "Expected", width: 38, right: true, cell: (l) => String(l.expected) },
    { label: "Counted", width: 36, right: true, cell: (l) => String(l.counted) },
    { label: "Difference", width: 42, right: true, cell: (l) => signed(l.difference) },
    { label: "At cost", width: 62, right: true, cell: (l) => cents(l.value_at_cost) },
    { label: "At price", width: 62, right: true, cell: (l) => cents(l.value_at_price) },
    {
      label: "Applied",
      width: 54,
      right: true,
      cell: (l) => (l.applied !== null ? signed(l.applied) : approved && l.product_id !== null ? "Not approved" : ""),
    },
  ];
}

type Sums = StockTakeReview["totals"] & { location?: string };

function sumColumns(money: Money): ColumnSpec<Sums>[] {
  return [
    { label: "Location", width: 168, cell: (s) => (s.location === undefined ? "All" : s.location || "No location") },
    { label: "Lines", width: 50, right: true, cell: (s) => String(s.lines) },
    { label: "Difference", width: 60, right: true, cell: (s) => signed(s.difference) },
    { label: "At cost", width: 80, right: true, cell: (s) => money(s.value_at_cost) },
    { label: "At price", width: 80, right: true, cell: (s) => money(s.value_at_price) },
  ];
}

/** `text` cut (with "...") to `width` points; printable in the standard fonts. */
export function fitText(text: string, width: number, size: number, bold: boolean, measure: Measure): string {
  const clean = printable(text);
  if (measure(clean, size, bold) <= width) return clean;
  let lo = 0;
  let hi = clean.length;
  // The longest start that fits with its "..." (binary search: widths grow with length).
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${clean.slice(0, mid).trimEnd()}...`, size, bold) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${clean.slice(0, lo).trimEnd()}...`;
}

/** The report's heading lines: title, status, who started and approved it and when, the scope, and when made. */
export function reviewPdfHeading(review: StockTakeReview, options: ReviewPdfOptions = {}): string[] {
  const take = review.stock_take;
  const date = (iso: string | Date) => (options.formatDate ?? ((d: Date) => d.toLocaleString()))(new Date(iso));
  const names = new Map(options.locations?.map((l) => [l.id, l.name]));
  const scope =
    "whole_shop" in take.scope ? "The whole shop" : take.scope.location_ids.map((id) => names.get(id) ?? `location #${id}`).join(", ");
  const lines = [`Stock take #${take.number}`, `Status: ${STATUS_LABELS[take.status] ?? take.status}`, `Scope: ${scope}`];
  lines.push(`Started by ${take.started_by} on ${date(take.started_at)}`);
  if (take.status === "approved") {
    lines.push(`Approved by ${take.approved_by ?? "?"}${take.finished_at ? ` on ${date(take.finished_at)}` : ""}`);
  } else if (take.status === "cancelled" && take.finished_at) {
    lines.push(`Cancelled on ${date(take.finished_at)}`);
  }
  const refused = review.refused_product_ids?.length ?? 0;
  if (refused > 0) lines.push(`${refused} product(s) left out: their stock changed while the approval ran (Not approved)`);
  lines.push(`Report made ${date(options.madeAt ?? new Date())}`);
  return lines.map(printable);
}

/**
 * The report laid out on A4 landscape pages: the heading, the totals and the sums per location,
 * then every line of the review as a table, page after page, its header on each page, texts cut
 * to their column; each page's footer says its number of all.
 */
export function reviewPdfPages(review: StockTakeReview, money: Money, measure: Measure, options: ReviewPdfOptions = {}): ReportPage[] {
  const { width, height, margin } = PAGE;
  const pages: ReportPage[] = [];
  let page: ReportPage = { texts: [], rules: [] };
  let y = height - margin;
  const bottom = margin + ROW * 2; // the footer's room
  const newPage = () => {
    pages.push(page);
    page = { texts: [], rules: [] };
    y = height - margin;
  };
  const put = (text: string, x: number, size: number, bold: boolean, right = false) =>
    page.texts.push({ text, x, y, size, bold, ...(right ? { right } : {}) });

  const table = <T>(columns: ColumnSpec<T>[], rows: readonly T[], boldRow?: (row: T) => boolean) => {
    const header = () => {
      let x = margin;
      for (const c of columns) {
        put(fitText(c.label, c.width, SIZE, true, measure), c.right ? x + c.width : x, SIZE, true, c.right);
        x += c.width + GAP;
      }
      page.rules.push({ x1: margin, x2: x - GAP, y: y - 3 });
      y -= ROW + 2;
    };
    header();
    for (const row of rows) {
      if (y < bottom) {
        newPage();
        header();
      }
      const bold = boldRow?.(row) ?? false;
      let x = margin;
      for (const c of columns) {
        const text = fitText(c.cell(row), c.width, SIZE, bold, measure);
        if (text) put(text, c.right ? x + c.width : x, SIZE, bold, c.right);
        x += c.width + GAP;
      }
      y -= ROW;
    }
  };
  const heading = (text: string, size: number) => {
    if (y < bottom + size * 3) newPage();
    put(fitText(text, width - 2 * margin, size, true, measure), margin, size, true);
    y -= size * 1.5;
  };

  const [title, ...about] = reviewPdfHeading(review, options);
  heading(title ?? "", 16);
  for (const line of about) {
    put(fitText(line, width - 2 * margin, 10, false, measure), margin, 10, false);
    y -= 13;
  }
  put(
    fitText(
      "Expected is each product's stock when it was first counted, moved by every sale and change since; difference is counted less expected.",
      width - 2 * margin,
      SIZE,
      false,
      measure,
    ),
    margin,
    SIZE,
    false,
  );
  y -= ROW + 8;

  heading("Totals and per location", 11);
  const sums: Sums[] = [...review.locations, review.totals];
  table(sumColumns(money), sums, (s) => s.location === undefined);
  y -= 10;

  heading(`Lines (${review.lines.length})`, 11);
  if (review.lines.length === 0) {
    put("Nothing counted and nothing expected.", margin, 10, false);
    y -= 13;
  } else table(lineColumns(review, money), review.lines);
  pages.push(page);

  const number = review.stock_take.number;
  pages.forEach((p, i) => {
    const footer = printable(`Stock take #${number} - page ${i + 1} of ${pages.length}`);
    p.texts.push({ text: footer, x: width - margin, y: margin - ROW, size: SIZE, bold: false, right: true });
  });
  return pages;
}

/** The report as PDF bytes (pdf-lib loads now). `money` is the shop's money formatter. */
export async function reviewPdf(review: StockTakeReview, money: Money, options: ReviewPdfOptions = {}): Promise<Uint8Array> {
  const { doc, lib } = await newPdf(`Stock take #${review.stock_take.number}`);
  const font = await doc.embedFont(lib.StandardFonts.Helvetica);
  const bold = await doc.embedFont(lib.StandardFonts.HelveticaBold);
  const measure: Measure = (text, size, isBold) => (isBold ? bold : font).widthOfTextAtSize(text, size);
  const ink = lib.rgb(0, 0, 0);
  for (const laid of reviewPdfPages(review, money, measure, options)) {
    const page = doc.addPage([PAGE.width, PAGE.height]);
    for (const t of laid.texts) {
      const f = t.bold ? bold : font;
      const x = t.right ? t.x - f.widthOfTextAtSize(t.text, t.size) : t.x;
      page.drawText(t.text, { x, y: t.y, size: t.size, font: f, color: ink });
    }
    for (const r of laid.rules) page.drawLine({ start: { x: r.x1, y: r.y }, end: { x: r.x2, y: r.y }, thickness: 0.5, color: ink });
  }
  return doc.save();
}

/** The PDF's file name, beside the CSV's (reviewCsvName). */
export const reviewPdfName = (number: number) => `stock-take-${number}.pdf`;
