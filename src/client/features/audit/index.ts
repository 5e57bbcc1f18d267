import { lazy } from "react";

// The dialog loads when first opened.
export const AuditDialog = lazy(() => import("./components/audit-dialog").then((m) => ({ default: m.AuditDialog })));
