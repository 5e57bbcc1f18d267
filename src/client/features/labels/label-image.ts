import type { Product } from "../../../contract/products";
import { gradeText, setText } from "../../lib/card-details";
import type { LabelSheet } from "./label-sheets";

/** Labels are drawn at 300 dots per inch: a thermal label printer's resolution. */
const DPI = 300;
const px = (mm: number) => Math.round((mm / 25.4) * DPI);
/** Code 128 wants a quiet zone of 10 modules on each side; a scanner needs modules of 2 dots or more at 300 dpi (0.17 mm). */
const QUIET_MODULES = 10;
const MIN_MODULE_PX = 2;
const MAX_MODULE_PX = 4;

/** The text lines of a product's label. */
export interface LabelText {
  name: string;
  /** Set and number, then the grade ("PSA 10") or the condition. */
  details: string;
  price: string;
}

export function labelText(p: Product, money: (cents: number | null) => string): LabelText {
  return { name: p.product_name, details: [setText(p), gradeText(p)].filter(Boolean).join(" · "), price: money(p.price) };
}

export class LabelTooSmallError extends Error {
  constructor(barcode: string) {
    super(`The barcode ${barcode} is too long to scan on this label size: choose a larger label`);
  }
}

/** Text that fits `width`: the font shrinks down to 75 %, then the text is cut with an ellipsis. */
function fitText(ctx: CanvasRenderingContext2D, text: string, width: number, size: number, weight: string): string {
  for (let s = size; s >= size * 0.75; s -= 1) {
    ctx.font = `${weight} ${s}px system-ui, sans-serif`;
    if (ctx.measureText(text).width <= width) return text;
  }
  let cut = text;
  while (cut.length > 1 && ctx.measureText(`${cut}…`).width > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

/** Only the Code 128 encoder: bwip-js's toCanvas takes every symbology it knows (most of a megabyte), one named encoder only its own. */
type Code128 = typeof import("bwip-js/browser").code128;

/** The Code 128 bars at the widest module that fits `width` with its quiet zones; too long for MIN_MODULE_PX: an error. */
function barsFor(code128: Code128, barcode: string, width: number): HTMLCanvasElement {
  for (let scale = MAX_MODULE_PX; scale >= MIN_MODULE_PX; scale--) {
    const canvas = document.createElement("canvas");
    code128(canvas, { bcid: "code128", text: barcode, scale, height: 10 });
    if (canvas.width + 2 * QUIET_MODULES * scale <= width) return canvas;
  }
  throw new LabelTooSmallError(barcode);
}

/**
 * One label as a picture at 300 dpi, the label's own size: name, details and price on top, the
 * Code 128 of the barcode below with the code in text under it. The PDF places this picture, so
 * what the preview shows is what prints. Drawn on a canvas, so any script the browser can show
 * prints (a PDF's standard fonts know only Western European letters).
 */
export async function renderLabel(p: Product, sheet: LabelSheet, money: (cents: number | null) => string): Promise<HTMLCanvasElement> {
  const { code128 } = await import("bwip-js/browser");
  const width = px(sheet.label.width);
  const height = px(sheet.label.height);
  const pad = px(1.5);
  const canvas = document.createElement("canvas");
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext("2d");
  if (!ctx) throw new Error("This browser cannot draw labels");
  ctx.fillStyle = "#fff";
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = "#000";
  ctx.textBaseline = "top";

  const text = labelText(p, money);
  const inner = width - 2 * pad;
  const nameSize = px(3);
  ctx.textAlign = "left";
  ctx.fillText(fitText(ctx, text.name, inner, nameSize, "bold"), pad, pad);

  const lineY = pad + nameSize * 1.15;
  const detailSize = px(2.5);
  let priceWidth = 0;
  if (text.price) {
    ctx.font = `bold ${px(3.2)}px system-ui, sans-serif`;
    priceWidth = ctx.measureText(text.price).width + px(1.5);
    ctx.textAlign = "right";
    ctx.fillText(text.price, width - pad, lineY);
    ctx.textAlign = "left";
  }
  if (text.details) ctx.fillText(fitText(ctx, text.details, inner - priceWidth, detailSize, "normal"), pad, lineY);

  const codeSize = px(2.2);
  const barsTop = lineY + px(3.2) * 1.2;
  const barsBottom = height - pad - codeSize * 1.1;
  const bars = barsFor(code128, p.barcode, width);
  // Bars stretch only in height: their widths stay whole dots.
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bars, Math.round((width - bars.width) / 2), barsTop, bars.width, Math.max(px(5), barsBottom - barsTop));
  ctx.textAlign = "center";
  ctx.fillText(fitText(ctx, p.barcode, inner, codeSize, "normal"), width / 2, barsBottom + codeSize * 0.1);
  return canvas;
}

/** A canvas as PNG bytes. */
export function pngOf(canvas: HTMLCanvasElement): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    canvas.toBlob((blob) => {
      if (!blob) reject(new Error("Failed to draw the label"));
      else void blob.arrayBuffer().then((b) => resolve(new Uint8Array(b)), reject);
    }, "image/png");
  });
}
