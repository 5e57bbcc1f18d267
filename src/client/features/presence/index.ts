export { LiveStatus } from "./components/live-status";
export { describeUpdate } from "./describe-update";
export { AUTH_SETUP_FAILED, LiveProvider, type LiveState, useInventoryUpdates, useLive } from "./hooks/use-live";
