import { lazy } from "react";

// The Integrations screen loads when first shown.
export const IntegrationsView = lazy(() => import("./components/integrations-view").then((m) => ({ default: m.IntegrationsView })));
