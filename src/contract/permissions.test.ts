import { describe, expect, it } from "vitest";
import { ROLES, resolvePermissions } from "./permissions.js";

describe("permissions: server answer first, spec fallbacks otherwise", () => {
  it("falls back per role when the server gives nothing", () => {
    expect(resolvePermissions("inventory", null)).toEqual({
      canManageProducts: true,
      canManageUsers: false,
      canViewAudit: true,
      canUpdateQuantity: true,
    });
    expect(resolvePermissions("manager", undefined)).toEqual({
      canManageProducts: true,
      canManageUsers: true,
      canViewAudit: true,
      canUpdateQuantity: true,
    });
    expect(resolvePermissions("streamer", null)).toEqual({
      canManageProducts: false,
      canManageUsers: false,
      canViewAudit: false,
      canUpdateQuantity: true,
    });
    // The spec's canManageUsers fallback is for managers only.
    expect(resolvePermissions("super_admin", null).canManageUsers).toBe(false);
  });

  it("takes every flag the server supplies, even against the fallback", () => {
    expect(resolvePermissions("super_admin", { canManageUsers: true }).canManageUsers).toBe(true);
    expect(resolvePermissions("manager", { canManageUsers: false }).canManageUsers).toBe(false);
    expect(resolvePermissions("streamer", { canUpdateQuantity: false }).canUpdateQuantity).toBe(false);
    for (const role of ROLES) {
      const server = { canManageProducts: false, canManageUsers: true, canViewAudit: false, canUpdateQuantity: false };
      expect(resolvePermissions(role, server)).toEqual(server);
    }
  });

  it("fills only the missing flags of a partial answer", () => {
    expect(resolvePermissions("inventory", { canManageProducts: false })).toEqual({
      canManageProducts: false,
      canManageUsers: false,
      canViewAudit: true,
      canUpdateQuantity: true,
    });
  });
});
