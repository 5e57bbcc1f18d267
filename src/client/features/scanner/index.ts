import { lazy } from "react";

export { CAMERA_DENIED, LOOKUP_FAILED, notFoundMessage } from "./messages";
export { isTextEntry, WedgeDetector } from "./wedge";

/** The overlay's code (camera, decoder) loads on demand: call to fetch it ahead of opening. */
export const loadScanner = () => import("./components/scanner-overlay");
export const ScannerOverlay = lazy(() => loadScanner().then((m) => ({ default: m.ScannerOverlay })));

/** The camera picture alone, decoding barcodes (a screen that handles each code itself: the stock take's counting). */
export const CameraView = lazy(() => import("./components/camera-view").then((m) => ({ default: m.CameraView })));
