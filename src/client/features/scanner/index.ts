// The overlay itself is imported lazily by path (components/scanner-overlay), so its camera code loads on demand.
export { CAMERA_DENIED, LOOKUP_FAILED, notFoundMessage } from "./messages";
export { isTextEntry, WedgeDetector } from "./wedge";
