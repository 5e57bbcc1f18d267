import { canManageIntegrations, type Permissions, type Role } from "../../contract/permissions";

export const VIEWS = [
  "streamer",
  "inventory",
  "counter",
  "customers",
  "stockTakes",
  "reports",
  "users",
  "orders",
  "prices",
  "integrations",
] as const;
export type View = (typeof VIEWS)[number];

export const VIEW_LABELS: Record<View, string> = {
  streamer: "Streamer View",
  inventory: "Full Inventory",
  counter: "Counter",
  customers: "Customers",
  stockTakes: "Stock take",
  reports: "Reports",
  users: "Manage Users",
  orders: "Orders",
  prices: "Prices",
  integrations: "Integrations",
};

/**
 * Streamers: only the streamer view. Others: streamer, inventory, counter, customers and stock takes (canManageProducts), reports
 * (canViewAudit: managers and super_admin, inventory users without money at cost), users
 * (canManageUsers); managers and super administrators also orders, prices and integrations.
 */
export function allowedViews(role: Role, permissions: Permissions): View[] {
  if (role === "streamer") return ["streamer"];
  const views: View[] = ["streamer"];
  if (permissions.canManageProducts) views.push("inventory", "counter", "customers", "stockTakes");
  if (permissions.canViewAudit) views.push("reports");
  if (permissions.canManageUsers) views.push("users");
  if (canManageIntegrations(role)) views.push("orders", "prices", "integrations");
  return views;
}

/** Streamer view for streamers, inventory for the others (when they may see it). */
export function defaultView(role: Role, permissions: Permissions): View {
  const allowed = allowedViews(role, permissions);
  return role !== "streamer" && allowed.includes("inventory") ? "inventory" : "streamer";
}
