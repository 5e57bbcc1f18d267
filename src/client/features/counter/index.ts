import { lazy } from "react";
import type { SaleReceiptInput } from "./receipt-pdf";

// The counter's screens (issue 40) load when first shown.
export const CounterView = lazy(() => import("./components/counter-view").then((m) => ({ default: m.CounterView })));
export const CustomersView = lazy(() => import("./components/customers-view").then((m) => ({ default: m.CustomersView })));

// Parts other features reuse: the Orders screen's counter sale picks its customer and prints its receipt with these.
// The picker is lazy too: this index is part of the first screen, and the picker brings the counter's API and schemas.
export const ScanOrSearch = lazy(() => import("./components/scan-or-search").then((m) => ({ default: m.ScanOrSearch })));
export const PrintReceiptButton = lazy(() => import("./components/print-receipt-button").then((m) => ({ default: m.PrintReceiptButton })));
export const CustomerPicker = lazy(() => import("./components/customer-picker").then((m) => ({ default: m.CustomerPicker })));
export { SHOP_NAME } from "./shop-name";

/** A sale's receipt as a PDF: its drawing code loads when a receipt is printed. */
export async function saleReceiptPdf(input: SaleReceiptInput): Promise<Uint8Array> {
  return (await import("./receipt-pdf")).saleReceiptPdf(input);
}
