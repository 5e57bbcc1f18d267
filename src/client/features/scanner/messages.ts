/** The scanner's messages: a barcode not found, a lookup that failed, the camera refused. */
export const notFoundMessage = (barcode: string) => `Product with barcode ${barcode} not found in inventory`;
export const LOOKUP_FAILED = "Failed to lookup product";
export const CAMERA_DENIED = "Camera access denied. Please allow camera access and refresh the page.";
