// How old a market price is: shared with the inventory's rows, so it lives in lib/.
export { ageText, daysBetween } from "../../lib/market-age";
