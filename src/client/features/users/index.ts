import { lazy } from "react";

// The users screen loads when first shown.
export const UsersView = lazy(() => import("./components/users-view").then((m) => ({ default: m.UsersView })));
