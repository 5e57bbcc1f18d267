export { StreamerView } from "./components/streamer-view";
