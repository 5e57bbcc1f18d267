import type { PaymentMethod, TradeIn } from "../../../contract/counter";
import type { Order } from "../../../contract/orders";
import { newPdf, printable } from "../../lib/pdf";

export { SHOP_NAME } from "./shop-name";

export interface ReceiptInput {
  shopName: string;
  tradeIn: TradeIn;
  /** The customer's name as shown, or null for none. */
  customer: string | null;
  /** Cents in the shop's currency. */
  money: (cents: number) => string;
  /** When printed (the accepted time when there is one). */
  date: Date;
}

const PAYOUT_TEXT = { cash: "Cash", credit: "Store credit", split: "Split: cash and store credit" } as const;

/** The receipt's lines of text, top to bottom (the PDF draws them; tests read them). */
export function receiptLines({ shopName, tradeIn, customer, money, date }: ReceiptInput): string[] {
  const lines = [shopName, `Trade-in #${tradeIn.number}`, `Date: ${date.toLocaleString()}`, `Customer: ${customer ?? "none"}`, ""];
  for (const line of tradeIn.lines.filter((l) => !l.struck)) {
    const condition = line.condition ? ` (${line.condition})` : "";
    lines.push(
      `${line.quantity} x ${line.product_name}${condition}: ${money(line.offer_cash_cents * line.quantity)} cash / ${money(line.offer_credit_cents * line.quantity)} credit`,
    );
  }
  lines.push(
    "",
    `Units: ${tradeIn.totals.units}`,
    `Total offer: ${money(tradeIn.totals.cash_cents)} in cash or ${money(tradeIn.totals.credit_cents)} in store credit`,
    `Payout: ${PAYOUT_TEXT[tradeIn.payout]}`,
  );
  if (tradeIn.cash_cents > 0) lines.push(`Paid in cash: ${money(tradeIn.cash_cents)}`);
  if (tradeIn.credit_cents > 0) lines.push(`Store credit written: ${money(tradeIn.credit_cents)}`);
  return lines.map(printable);
}

/** The trade-in's receipt as a PDF (A4-ish letter page, pages added as the lines need): pdf-lib loads only now. */
export async function receiptPdf(input: ReceiptInput): Promise<Uint8Array> {
  return linesPdf(`${input.shopName} trade-in #${input.tradeIn.number}`, receiptLines(input), "Customer's signature");
}

/** A counter sale (an order of the channel "counter"): what its receipt says. */
export interface SaleReceiptInput {
  shopName: string;
  order: Order;
  /** The customer's name as shown, or null for none. */
  customer: string | null;
  money: (cents: number) => string;
  /** The customer's store credit after the sale, when they have a customer. */
  creditLeft?: number | null;
}

const METHOD_TEXT: Record<PaymentMethod, string> = { cash: "Cash", card: "Card", credit: "Store credit" };

/** A sale's receipt lines: the shop's name, the order's number, date, customer, lines, total and payments. */
export function saleReceiptLines({ shopName, order, customer, money, creditLeft }: SaleReceiptInput): string[] {
  const lines = [
    shopName,
    `Sale #${order.id}`,
    `Date: ${new Date(order.created_at).toLocaleString()}`,
    `Customer: ${customer ?? "none"}`,
    "",
  ];
  for (const line of order.lines) {
    const price = line.unit_price ?? 0;
    lines.push(`${line.quantity} x ${line.product_name}: ${money(price)} each, ${money(price * line.quantity)}`);
  }
  lines.push("", `Total: ${money(order.total ?? 0)}`);
  for (const p of order.payments ?? []) lines.push(`Paid by ${METHOD_TEXT[p.method].toLowerCase()}: ${money(p.amount)}`);
  if (creditLeft !== undefined && creditLeft !== null) lines.push(`Store credit left: ${money(creditLeft)}`);
  lines.push("", "Thank you!");
  return lines.map(printable);
}

/** A counter sale's receipt as a PDF, drawn as the trade-in's is (no signature line). */
export async function saleReceiptPdf(input: SaleReceiptInput): Promise<Uint8Array> {
  return linesPdf(`${input.shopName} sale #${input.order.id}`, saleReceiptLines(input), null);
}

/** Draws receipt lines on letter pages: the first two as headings, then the rest, and a signature line when asked for. */
async function linesPdf(title: string, lines: string[], signature: string | null): Promise<Uint8Array> {
  const { doc, lib } = await newPdf(title);
  const { StandardFonts } = lib;
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const width = 612;
  const height = 792;
  const margin = 56;
  let page = doc.addPage([width, height]);
  let y = height - margin;
  const write = (text: string, size: number, f = font) => {
    // Long lines wrap by words to the page's width.
    const words = text.split(" ");
    let current = "";
    const rows: string[] = [];
    for (const word of words) {
      const next = current ? `${current} ${word}` : word;
      if (f.widthOfTextAtSize(next, size) > width - 2 * margin && current) {
        rows.push(current);
        current = word;
      } else current = next;
    }
    rows.push(current);
    for (const row of rows) {
      if (y < margin + size) {
        page = doc.addPage([width, height]);
        y = height - margin;
      }
      page.drawText(row, { x: margin, y, size, font: f });
      y -= size * 1.4;
    }
  };
  const [shop, number, ...rest] = lines;
  write(shop ?? "", 18, bold);
  write(number ?? "", 14, bold);
  for (const line of rest) write(line, 11);
  if (signature === null) return doc.save();
  y -= 40;
  if (y < margin + 40) {
    page = doc.addPage([width, height]);
    y = height - margin - 40;
  }
  page.drawLine({ start: { x: margin, y }, end: { x: margin + 260, y }, thickness: 0.8 });
  y -= 14;
  page.drawText(signature, { x: margin, y, size: 10, font });
  return doc.save();
}
