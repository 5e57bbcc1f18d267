import { describe, expect, it } from "vitest";
import { permissionsFor } from "../../contract/permissions";
import { allowedViews, defaultView } from "./views";

describe("views per role", () => {
  it("streamers see only the streamer view", () => {
    expect(allowedViews("streamer", permissionsFor("streamer"))).toEqual(["streamer"]);
    expect(defaultView("streamer", permissionsFor("streamer"))).toBe("streamer");
    // even with unusual permissions
    expect(allowedViews("streamer", permissionsFor("manager"))).toEqual(["streamer"]);
  });

  it("others see inventory, counter and customers with canManageProducts, reports with canViewAudit, users with canManageUsers, orders, prices and integrations as managers; default inventory", () => {
    expect(allowedViews("inventory", permissionsFor("inventory"))).toEqual([
      "streamer",
      "inventory",
      "counter",
      "customers",
      "stockTakes",
      "reports",
    ]);
    const all = ["streamer", "inventory", "counter", "customers", "stockTakes", "reports", "users", "orders", "prices", "integrations"];
    expect(allowedViews("manager", permissionsFor("manager"))).toEqual(all);
    expect(allowedViews("super_admin", permissionsFor("super_admin"))).toEqual(all);
    expect(defaultView("manager", permissionsFor("manager"))).toBe("inventory");
    expect(defaultView("inventory", permissionsFor("inventory"))).toBe("inventory");
  });

  it("falls back to the streamer view when inventory is not allowed", () => {
    const none = { canManageProducts: false, canManageUsers: false, canViewAudit: false, canUpdateQuantity: true };
    expect(allowedViews("inventory", none)).toEqual(["streamer"]);
    expect(defaultView("inventory", none)).toBe("streamer");
  });
});
