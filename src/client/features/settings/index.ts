export { useMoney, useSettings } from "./use-settings";
