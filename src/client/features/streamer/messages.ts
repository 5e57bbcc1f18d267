/** The streamer's warnings: a scanned product that is disabled, a recent product disabled since. */
export const DISABLED_IN_STREAM = "This product is currently disabled and cannot be used during streams.";
export const DISABLED_RECENT = "This product has been disabled and can no longer be used.";
