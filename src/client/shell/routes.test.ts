import { describe, expect, it } from "vitest";
import { type Permissions, permissionsFor, type Role } from "../../contract/permissions";
import {
  BUYLIST_PATH,
  customerPath,
  firstScreen,
  isPublicPath,
  landing,
  orderPath,
  placeOf,
  productPath,
  stockTakePath,
  VIEW_PATHS,
} from "./routes";
import { VIEWS } from "./views";

const as = (role: Role): [Role, Permissions] => [role, permissionsFor(role)];

describe("the app's addresses", () => {
  it("each view has its own path, and a product and an order theirs", () => {
    for (const view of VIEWS) expect(placeOf(VIEW_PATHS[view])).toEqual({ view });
    expect(placeOf("/reports/")).toEqual({ view: "reports" });
    expect(placeOf(productPath(12))).toEqual({ view: "inventory", productId: 12 });
    expect(placeOf(orderPath(7))).toEqual({ view: "orders", orderId: 7 });
    expect(placeOf(customerPath(3))).toEqual({ view: "customers", customerId: 3 });
    expect(placeOf(stockTakePath(5))).toEqual({ view: "stockTakes", stockTakeId: 5 });
    expect(placeOf(stockTakePath(5, true))).toEqual({ view: "stockTakes", stockTakeId: 5, stockTakeReview: true });
  });

  it("the root, unknown paths and ids that are not ids name no place", () => {
    for (const path of [
      "/",
      "",
      "/login",
      "/inventory/products",
      "/inventory/products/0",
      "/inventory/products/abc",
      "/inventory/products/1e3",
      "/inventory/products/-1",
      "/inventory/products/12/edit",
      "/inventory/products/1234567890123456",
      "/orders/x",
      "/orders/7/lines",
      "/customers/0",
      "/customers/3/credit",
      "/counter/3",
      "/stock-takes/0",
      "/stock-takes/3/approve",
      "/reports/products/3",
      "/streamerz",
    ]) {
      expect(placeOf(path), path).toBeNull();
    }
  });
});

describe("where a signed-in user lands", () => {
  it("on the place the address names when the role may see it", () => {
    expect(landing("/reports", ...as("inventory"))).toEqual({ place: { view: "reports" }, redirect: null, denied: null });
    expect(landing("/inventory/products/5", ...as("manager"))).toEqual({
      place: { view: "inventory", productId: 5 },
      redirect: null,
      denied: null,
    });
    expect(landing("/orders/9", ...as("super_admin")).place).toEqual({ view: "orders", orderId: 9 });
    expect(landing("/streamer", ...as("manager")).place).toEqual({ view: "streamer" });
  });

  it("on the role's default view, with the view it may not see named, for an address beyond its role", () => {
    expect(landing("/integrations", ...as("streamer"))).toEqual({
      place: { view: "streamer" },
      redirect: "/streamer",
      denied: "integrations",
    });
    expect(landing("/inventory/products/5", ...as("streamer"))).toEqual({
      place: { view: "streamer" },
      redirect: "/streamer",
      denied: "inventory",
    });
    expect(landing("/orders/9", ...as("inventory"))).toEqual({ place: { view: "inventory" }, redirect: "/inventory", denied: "orders" });
    expect(landing("/users", ...as("inventory")).denied).toBe("users");
    expect(landing("/counter", ...as("streamer"))).toEqual({ place: { view: "streamer" }, redirect: "/streamer", denied: "counter" });
    expect(landing("/customers/4", ...as("streamer")).denied).toBe("customers");
    expect(landing("/customers/4", ...as("inventory")).place).toEqual({ view: "customers", customerId: 4 });
  });

  it("on the role's default view, without a message, from the root or an unknown path", () => {
    expect(landing("/", ...as("streamer"))).toEqual({ place: { view: "streamer" }, redirect: "/streamer", denied: null });
    expect(landing("/", ...as("manager"))).toEqual({ place: { view: "inventory" }, redirect: "/inventory", denied: null });
    expect(landing("/nowhere", ...as("inventory"))).toEqual({ place: { view: "inventory" }, redirect: "/inventory", denied: null });
  });

  it("follows allowedViews for unusual permissions too", () => {
    const none = { canManageProducts: false, canManageUsers: false, canViewAudit: false, canUpdateQuantity: true };
    expect(landing("/inventory", "inventory", none)).toEqual({ place: { view: "streamer" }, redirect: "/streamer", denied: "inventory" });
  });
});

describe("the first screen (the app's preloads and the page's head decide with it)", () => {
  it("is the inventory on an inventory or product address, the role's default on the root, else the address's view", () => {
    expect(firstScreen("/inventory?q=x", ...as("manager"))).toBe("inventory");
    expect(firstScreen("/inventory/products/3", ...as("inventory"))).toBe("inventory");
    expect(firstScreen("/", ...as("inventory"))).toBe("inventory");
    expect(firstScreen("/", ...as("streamer"))).toBe("streamer");
    expect(firstScreen("/reports", ...as("manager"))).toBe("reports");
    expect(firstScreen("/streamer", ...as("manager"))).toBe("streamer");
    // A streamer never gets the catalogue, whatever the address.
    expect(firstScreen("/inventory", ...as("streamer"))).toBe("streamer");
  });
});

describe("the public buylist", () => {
  it("is the one address shown without a session, and no view of the signed-in app", () => {
    expect(isPublicPath(BUYLIST_PATH)).toBe(true);
    expect(isPublicPath("/buylist/")).toBe(true);
    expect(isPublicPath("/buylist/3")).toBe(false);
    expect(isPublicPath("/")).toBe(false);
    expect(isPublicPath("/counter")).toBe(false);
    expect(placeOf(BUYLIST_PATH)).toBeNull();
  });
});
