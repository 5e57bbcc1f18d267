import { lazy } from "react";

export { WaitingTaps } from "./components/waiting-taps";

// The streamer view loads when first shown: the sign-in screen and the inventory do without it.
export const StreamerView = lazy(() => import("./components/streamer-view").then((m) => ({ default: m.StreamerView })));
