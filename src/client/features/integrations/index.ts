import { lazy } from "react";

// The integrations screen loads when first shown.
export const IntegrationsView = lazy(() => import("./components/integrations-view").then((m) => ({ default: m.IntegrationsView })));
