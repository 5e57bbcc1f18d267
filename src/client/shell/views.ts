import type { Permissions, Role } from "../../contract/permissions";

export const VIEWS = ["streamer", "inventory", "users", "integrations"] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_LABELS: Record<View, string> = {
  streamer: "Streamer View",
  inventory: "Full Inventory",
  users: "Manage Users",
  integrations: "Integrations",
};

/**
 * Streamers: only the streamer view. Others: streamer, inventory (canManageProducts), users and
 * integrations (canManageUsers: managers and super_admin).
 */
export function allowedViews(role: Role, permissions: Permissions): View[] {
  if (role === "streamer") return ["streamer"];
  const views: View[] = ["streamer"];
  if (permissions.canManageProducts) views.push("inventory");
  if (permissions.canManageUsers) views.push("users", "integrations");
  return views;
}

/** Streamer view for streamers, inventory for the others (when they may see it). */
export function defaultView(role: Role, permissions: Permissions): View {
  const allowed = allowedViews(role, permissions);
  return role !== "streamer" && allowed.includes("inventory") ? "inventory" : "streamer";
}
