/**
 * What the PDFs made in the browser share (receipts, label sheets, a stock take's report). pdf-lib
 * is loaded by `newPdf` only, when a PDF is made, so it is in no screen's first bundle.
 */

/**
 * The standard fonts encode WinAnsi only: other characters (a name in another script) print as "?".
 * Spaces of other widths (the narrow one before "PM" in a date, a thousands separator) print as a
 * space, and a minus sign as "-".
 */
export const printable = (text: string) =>
  text
    .replace(/[\p{Zs}]/gu, (s) => (s === "\xA0" ? s : " "))
    .replace(/\u2212/g, "-")
    .replace(/[^\x20-\x7E\xA0-\xFF\u20AC]/g, "?");

/** A new PDF document titled `title` (printable), made by Blez Inventory; and pdf-lib, loaded now. */
export async function newPdf(title: string) {
  const lib = await import("pdf-lib");
  const doc = await lib.PDFDocument.create();
  doc.setTitle(printable(title));
  doc.setCreator("Blez Inventory");
  return { doc, lib };
}
