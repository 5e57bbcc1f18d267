// Customers: how screens name one (no zod: the first screen's bundle may reach it through a feature's index).

/** What screens show for an erased customer (the API answers an empty name): the money records stay, the person does not. */
export const ERASED_CUSTOMER_NAME = "Erased customer";

/** A customer's name as screens and receipts show it. */
export const customerName = (c: { name: string; erased_at: string | null }) => (c.erased_at ? ERASED_CUSTOMER_NAME : c.name);
