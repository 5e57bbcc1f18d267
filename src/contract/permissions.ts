// No zod here: the client's first screen imports this module (the schemas are in users.ts and auth.ts).

export const ROLES = ["super_admin", "manager", "inventory", "streamer"] as const;
export type Role = (typeof ROLES)[number];

export interface Permissions {
  canManageProducts: boolean;
  canManageUsers: boolean;
  canViewAudit: boolean;
  canUpdateQuantity: boolean;
}
export type Permission = keyof Permissions;

/** The permissions of each role, as the server answers them. The server enforces them; the client hides what they forbid. */
export const ROLE_PERMISSIONS: Record<Role, Permissions> = {
  super_admin: { canManageProducts: true, canManageUsers: true, canViewAudit: true, canUpdateQuantity: true },
  manager: { canManageProducts: true, canManageUsers: true, canViewAudit: true, canUpdateQuantity: true },
  inventory: { canManageProducts: true, canManageUsers: false, canViewAudit: true, canUpdateQuantity: true },
  streamer: { canManageProducts: false, canManageUsers: false, canViewAudit: false, canUpdateQuantity: true },
};

export function permissionsFor(role: Role): Permissions {
  return ROLE_PERMISSIONS[role];
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role][permission];
}

/**
 * Beyond the spec's four flags: API tokens, webhooks and the orders screen are for managers and
 * super administrators (the server checks it as the permission `canManageIntegrations`).
 */
export function canManageIntegrations(role: Role): boolean {
  return role === "manager" || role === "super_admin";
}

/** What the server checks: the spec's four permissions and `canManageIntegrations`. */
export type ServerPermission = Permission | "canManageIntegrations";

/** Whether a role has a server permission (the one table above, and integrations for managers). */
export function roleHas(role: Role, permission: ServerPermission): boolean {
  return permission === "canManageIntegrations" ? canManageIntegrations(role) : can(role, permission);
}

/**
 * The client's fallbacks, used only where the server gave no value: products and audit for
 * inventory and managers, users for managers, quantity for everyone.
 * Note the spec's fallback for canManageUsers leaves super_admin out; the server answer wins anyway.
 */
export function fallbackPermissions(role: Role): Permissions {
  const staff = role === "inventory" || role === "manager";
  return {
    canManageProducts: staff,
    canManageUsers: role === "manager",
    canViewAudit: staff,
    canUpdateQuantity: true,
  };
}

/** Server answer first, spec fallbacks for any flag the server left out. */
export function resolvePermissions(role: Role, server: Partial<Permissions> | null | undefined): Permissions {
  const fallback = fallbackPermissions(role);
  return {
    canManageProducts: server?.canManageProducts ?? fallback.canManageProducts,
    canManageUsers: server?.canManageUsers ?? fallback.canManageUsers,
    canViewAudit: server?.canViewAudit ?? fallback.canViewAudit,
    canUpdateQuantity: server?.canUpdateQuantity ?? fallback.canUpdateQuantity,
  };
}

/** Only a super_admin may create or modify a super_admin. */
export function canTouchRole(actor: Role, target: Role): boolean {
  return target !== "super_admin" || actor === "super_admin";
}

export const ROLE_LABELS: Record<Role, string> = {
  super_admin: "Super Administrator",
  manager: "Manager",
  inventory: "Inventory",
  streamer: "Streamer",
};
