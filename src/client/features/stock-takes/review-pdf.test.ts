import { inflateSync } from "node:zlib";
import { PDFArray, PDFDocument, type PDFPage, PDFRawStream, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { formatMoney } from "../../../contract/money";
import type { ReviewLine, StockTake, StockTakeReview } from "../../../contract/stock-takes";
import { type Measure, PAGE, reviewPdf, reviewPdfHeading, reviewPdfName, reviewPdfPages } from "./review-pdf";

const money = (cents: number) => formatMoney(cents, "USD", "en-US");
const formatDate = (d: Date) => d.toISOString().slice(0, 16).replace("T", " ");

const session: StockTake = {
  id: 7,
  number: 12,
  status: "approved",
  scope: { location_ids: [1, 2] },
  started_by: "sam",
  started_at: "2026-03-14T08:00:00.000Z",
  finished_at: "2026-03-14T11:30:00.000Z",
  approved_by: "maria",
  scans: 320,
};
const line = (i: number, fields: Partial<ReviewLine> = {}): ReviewLine => ({
  product_id: i,
  barcode: `20000000${String(i).padStart(5, "0")}`,
  name: `Card ${i}`,
  location: i % 2 ? "Binder wall" : "Case 1",
  found_in: [i % 2 ? "Binder wall" : "Case 1"],
  expected: 3,
  counted: 2,
  difference: -1,
  value_at_cost: -250,
  value_at_price: -499,
  status: "counted",
  applied: -1,
  ...fields,
});
const LONG = `Charizard ex Special Illustration Rare ${"Obsidian Flames ".repeat(8)}END-OF-NAME`;
const review = (lines: ReviewLine[]): StockTakeReview => ({
  stock_take: session,
  lines,
  locations: [
    { location: "Binder wall", lines: 150, difference: -150, value_at_cost: -37_500, value_at_price: -74_850 },
    { location: "", lines: 2, difference: 1, value_at_cost: 0, value_at_price: 0 },
  ],
  totals: { lines: lines.length, difference: -299, value_at_cost: -74_750, value_at_price: -149_201 },
  refused_product_ids: [5],
});
const many = review([
  line(1, { name: LONG }),
  line(2, { status: "missing", found_in: [], counted: 0, expected: 1, applied: -1 }),
  line(3, { status: "misplaced", found_in: ["Case 1", ""], difference: 2, value_at_cost: 500, applied: 2 }),
  line(4, {
    product_id: null,
    name: null,
    status: "unknown",
    barcode: "UNKNOWN-777",
    location: null,
    value_at_cost: null,
    value_at_price: null,
    applied: null,
  }),
  line(5, { applied: null }),
  ...Array.from({ length: 295 }, (_, i) => line(i + 6)),
]);
const options = { locations: [{ id: 1, name: "Binder wall" }], madeAt: new Date("2026-03-15T09:00:00.000Z"), formatDate };

/** Every text the page's content streams draw (pdf-lib writes each as `<hex> Tj`, flate-compressed). */
function pageTexts(page: PDFPage): string[] {
  const contents = page.node.Contents();
  const streams = contents instanceof PDFArray ? contents.asArray().map((r) => page.doc.context.lookup(r)) : [contents];
  const out: string[] = [];
  for (const stream of streams) {
    if (!(stream instanceof PDFRawStream)) continue;
    const text = new TextDecoder("latin1").decode(inflateSync(stream.contents));
    for (const m of text.matchAll(/<([0-9A-Fa-f]*)> Tj/g)) {
      const hex = m[1] ?? "";
      // WinAnsi is Latin-1 but for a few bytes: of those, only the euro sign (0x80) is printed here.
      const bytes = (hex.match(/../g) ?? []).map((h) => Number.parseInt(h, 16));
      out.push(bytes.map((b) => (b === 0x80 ? "€" : String.fromCharCode(b))).join(""));
    }
  }
  return out;
}

describe("a stock take's report as PDF", () => {
  it("heads with the number, status, who started and approved it and when, the scope and the left-out products", () => {
    expect(reviewPdfHeading(many, options)).toEqual([
      "Stock take #12",
      "Status: Approved",
      "Scope: Binder wall, location #2",
      "Started by sam on 2026-03-14 08:00",
      "Approved by maria on 2026-03-14 11:30",
      "1 product(s) left out: their stock changed while the approval ran (Not approved)",
      "Report made 2026-03-15 09:00",
    ]);
    const wholeShop = { ...many, stock_take: { ...session, scope: { whole_shop: true as const }, status: "cancelled" as const } };
    expect(reviewPdfHeading(wholeShop, options)).toContain("Scope: The whole shop");
    expect(reviewPdfHeading(wholeShop, options)).toContain("Cancelled on 2026-03-14 11:30");
    expect(reviewPdfName(12)).toBe("stock-take-12.pdf");
  });

  it("puts 300 lines on A4 landscape pages, the table's header on each, long names cut to their column", async () => {
    const pdf = await reviewPdf(many, money, options);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe("%PDF-");
    const doc = await PDFDocument.load(pdf);
    expect(doc.getTitle()).toBe("Stock take #12");
    // The layout the PDF draws, measured with the PDF's own fonts.
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    const measure: Measure = (t, size, b) => (b ? bold : font).widthOfTextAtSize(t, size);
    const pages = reviewPdfPages(many, money, measure, options);
    // 300 rows at 11 points on 595-point pages: about 44 a page, the first page shorter (heading, sums).
    expect(doc.getPageCount()).toBe(8);
    expect(pages).toHaveLength(8);
    for (const page of doc.getPages()) {
      expect(page.getWidth()).toBeCloseTo(PAGE.width, 1);
      expect(page.getHeight()).toBeCloseTo(PAGE.height, 1);
    }

    const texts = doc.getPages().map(pageTexts);
    // What the PDF draws is the layout's texts, page for page.
    expect(texts).toEqual(pages.map((p) => p.texts.map((t) => t.text)));
    const all = texts.flat();
    expect(all).toContain("Stock take #12");
    expect(all).toContain("Status: Approved");
    expect(all).toContain("Approved by maria on 2026-03-14 11:30");
    expect(all).toContain("Lines (300)");
    // The sums: per location ("" is No location) and all, with money formatted.
    for (const t of ["Totals and per location", "No location", "All", "-$747.50", "-$1,492.01", "-$375.00", "-$748.50"])
      expect(all).toContain(t);
    // Every page repeats the lines table's header and says its number.
    texts.forEach((page, i) => {
      for (const h of [
        "Name",
        "Barcode",
        "Location",
        "Found in",
        "Status",
        "Expected",
        "Counted",
        "Difference",
        "At cost",
        "At price",
        "Applied",
      ]) {
        expect(page).toContain(h);
      }
      expect(page).toContain(`Stock take #12 - page ${i + 1} of 8`);
    });
    // Every line is on exactly one page, once.
    for (let i = 6; i <= 300; i++) expect(all.filter((t) => t === `Card ${i}`)).toHaveLength(1);
    expect(all).toContain("UNKNOWN-777");
    expect(all).toContain("(unknown barcode)");
    expect(all).toContain("Never scanned");
    expect(all).toContain("Found elsewhere");
    expect(all).toContain("Unknown barcode");
    // Found in: each location, "" as No location (cut to its column like any text).
    expect(all.some((t) => /^Case 1, No/.test(t))).toBe(true);
    expect(all).toContain("Not approved");
    expect(all).toContain("+2");
    expect(all).toContain("-$2.50");
    // The long name is cut with "..." to fit its column, and nothing runs past the page's right margin.
    const cut = all.find((t) => t.startsWith("Charizard ex"));
    expect(cut).toMatch(/^Charizard ex Special Illustration Rare .*\.\.\.$/);
    expect(cut).not.toContain("END-OF-NAME");
    for (const page of pages) {
      for (const t of page.texts) {
        const right = t.right ? t.x : t.x + measure(t.text, t.size, t.bold);
        expect(right).toBeLessThanOrEqual(PAGE.width - PAGE.margin + 0.5);
        expect(t.y).toBeGreaterThanOrEqual(PAGE.margin - 12);
      }
    }
  });

  it("prints any name: characters the standard fonts lack become ?, odd spaces a space", async () => {
    const odd = review([line(1, { name: "リザードン ★ Zoë" }), line(2, { name: "a\u202Fb" })]);
    const pdf = await reviewPdf(odd, (c) => `${(c / 100).toFixed(2)}\u202F€`, options);
    const doc = await PDFDocument.load(pdf);
    const all = doc.getPages().flatMap(pageTexts);
    expect(all).toContain("????? ? Zo\xEB");
    expect(all).toContain("a b");
    expect(all).toContain("-2.50 €");
  });

  it("says when there are no lines", async () => {
    const pdf = await reviewPdf({ ...review([]), locations: [], refused_product_ids: [] }, money, options);
    const doc = await PDFDocument.load(pdf);
    expect(doc.getPageCount()).toBe(1);
    expect(pageTexts(doc.getPage(0))).toContain("Nothing counted and nothing expected.");
  });
});
