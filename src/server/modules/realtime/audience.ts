import { ROLES, type Role, roleHas } from "../../../contract/permissions.js";
import { hearsLowStock } from "../../../contract/report-rules.js";
import type { ServerPermission } from "../../permissions.js";

/** The bus events (server/events.ts) the realtime plugin sends on to sockets; `user_revoked` stays in the server. */
export type BroadcastEvent = "inventory_update" | "show_update" | "order_update" | "low_stock" | "stock_take_update";

/**
 * Who may hear each event: the permission of the GET route that answers the same data, so a
 * socket never carries what its user's API calls are refused (`signedIn`: every signed-in user).
 * An order event carries the channel, the external id, the note and the prices: only those who
 * may list orders hear it.
 */
export const EVENT_PERMISSIONS: Record<BroadcastEvent, ServerPermission | "signedIn"> = {
  /** GET /api/products (and the `since` catch-up the client makes from these events). */
  inventory_update: "signedIn",
  /** GET /api/shows. */
  show_update: "canUpdateQuantity",
  /** GET /api/orders. */
  order_update: "canManageIntegrations",
  /** GET /api/reports/reorder. */
  low_stock: "canViewAudit",
  /** GET /api/stock-takes/{id} (who may count: scans merged live on every counting device). */
  stock_take_update: "canManageProducts",
};

/** Events that go to fewer roles than may read them: `low_stock` is the managers' toast (contract/report-rules.ts). */
const EVENT_LISTENERS: Partial<Record<BroadcastEvent, (role: Role) => boolean>> = { low_stock: hearsLowStock };

/** May a signed-in user of `role` read what needs `permission`? The routes' own check (contract roleHas). */
function roleMayRead(role: Role, permission: ServerPermission | "signedIn"): boolean {
  return permission === "signedIn" || roleHas(role, permission);
}

/** The roles whose sockets get `event`: those that may read it, and want it. */
export function audienceOf(event: BroadcastEvent): Role[] {
  const wants = EVENT_LISTENERS[event] ?? (() => true);
  return ROLES.filter((role) => roleMayRead(role, EVENT_PERMISSIONS[event]) && wants(role));
}
