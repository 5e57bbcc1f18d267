/** Spec section 8. */
export const QUANTITY_FAILED = "Failed to update quantity";
