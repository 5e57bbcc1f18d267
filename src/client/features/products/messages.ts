/** What a quantity change that failed says (then the server's reason, when there is one). */
export const QUANTITY_FAILED = "Failed to update quantity";
