import { newPdf } from "../../lib/pdf";
import { type LabelSheet, labelPosition } from "./label-sheets";

const pt = (mm: number) => (mm / 25.4) * 72;

/** One product's label picture (PNG) and how many of it to print. */
export interface LabelRun {
  png: Uint8Array;
  copies: number;
}

/** A PDF of the labels on `sheet`, filled row by row, page after page; each picture embedded once. */
export async function labelsPdf(runs: readonly LabelRun[], sheet: LabelSheet): Promise<Uint8Array> {
  const { doc } = await newPdf("Labels");
  const pages: ReturnType<typeof doc.addPage>[] = [];
  let index = 0;
  for (const run of runs) {
    const image = await doc.embedPng(run.png);
    for (let copy = 0; copy < run.copies; copy++, index++) {
      const at = labelPosition(sheet, index);
      const page = pages[at.page] ?? doc.addPage([pt(sheet.page.width), pt(sheet.page.height)]);
      pages[at.page] = page;
      // PDF pages measure from the bottom left; the layout from the top left.
      page.drawImage(image, {
        x: pt(at.x),
        y: pt(sheet.page.height - at.y - sheet.label.height),
        width: pt(sheet.label.width),
        height: pt(sheet.label.height),
      });
    }
  }
  return doc.save();
}
