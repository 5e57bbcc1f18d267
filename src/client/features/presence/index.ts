export { LiveStatus } from "./components/live-status";
export { AUTH_SETUP_FAILED, LiveProvider, type LiveProviderProps, type LiveState, useLive } from "./hooks/use-live";
