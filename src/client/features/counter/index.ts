import { lazy } from "react";

// The counter's screens (issue 40) load when first shown.
export const CounterView = lazy(() => import("./components/counter-view").then((m) => ({ default: m.CounterView })));
export const CustomersView = lazy(() => import("./components/customers-view").then((m) => ({ default: m.CustomersView })));

// Parts other features reuse: the Orders screen's counter sale picks its customer and prints its receipt with these.
export { CustomerPicker, customerName } from "./components/customer-picker";
export { SHOP_NAME, saleReceiptLines, saleReceiptPdf } from "./receipt-pdf";
