/** Spec section 4, streamer view. */
export const DISABLED_IN_STREAM = "This product is currently disabled and cannot be used during streams.";
export const DISABLED_RECENT = "This product has been disabled and can no longer be used.";
