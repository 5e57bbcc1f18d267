import { lazy } from "react";

// The public buylist page (issue 40): its own chunk, loaded only at /buylist, never with the first screen.
export const BuylistPage = lazy(() => import("./components/buylist-page").then((m) => ({ default: m.BuylistPage })));
