export { StreamerView } from "./components/streamer-view";
export { WaitingTaps } from "./components/waiting-taps";
