// The app's addresses. No router and no React here: the page's head (early/early-catalogue.ts)
// decides the first screen with the same rule as the app.
import type { Permissions, Role } from "../../contract/permissions";
import { allowedViews, defaultView, VIEWS, type View } from "./views";

export const VIEW_PATHS: Record<View, string> = {
  streamer: "/streamer",
  inventory: "/inventory",
  counter: "/counter",
  customers: "/customers",
  stockTakes: "/stock-takes",
  reports: "/reports",
  users: "/users",
  orders: "/orders",
  prices: "/prices",
  integrations: "/integrations",
};

/**
 * The public buylist (issue 40): a page for customers, shown without a session (app.tsx renders it
 * in place of the sign-in screen and the signed-in app, whoever is signed in on the device).
 */
export const BUYLIST_PATH = "/buylist";
/** True for the addresses shown without a session: the buylist (a trailing slash allowed). */
export const isPublicPath = (pathname: string) => pathname.replace(/\/+$/, "") === BUYLIST_PATH;

/** The Edit Product dialog of one product, over the inventory (or over the screen that opened it). */
export const productPath = (id: number) => `/inventory/products/${id}`;
/** One order, opened over the Orders list. */
export const orderPath = (id: number) => `/orders/${id}`;
/** One customer's page (trade-ins, orders, store credit), in place of the Customers list. */
export const customerPath = (id: number) => `/customers/${id}`;
/** One stock take's counting screen; with `review`, its review. */
export const stockTakePath = (id: number, review = false) => `/stock-takes/${id}${review ? "/review" : ""}`;

/** What an address shows: a view, and the product, order or customer it opens. */
export interface Place {
  view: View;
  productId?: number;
  orderId?: number;
  customerId?: number;
  stockTakeId?: number;
  /** /stock-takes/{id}/review. */
  stockTakeReview?: boolean;
}

const ID = /^[1-9][0-9]{0,14}$/;

/** The place a path names; null for the root and for a path the app does not know. A trailing slash is allowed. */
export function placeOf(pathname: string): Place | null {
  const parts = pathname.split("/").filter(Boolean);
  const view = VIEWS.find((v) => VIEW_PATHS[v] === `/${parts[0] ?? ""}`);
  if (!view) return null;
  if (parts.length === 1) return { view };
  const [, second, third] = parts;
  if (view === "inventory" && parts.length === 3 && second === "products" && third && ID.test(third)) {
    return { view, productId: Number(third) };
  }
  if (view === "orders" && parts.length === 2 && second && ID.test(second)) return { view, orderId: Number(second) };
  if (view === "customers" && parts.length === 2 && second && ID.test(second)) return { view, customerId: Number(second) };
  if (view === "stockTakes" && second && ID.test(second)) {
    if (parts.length === 2) return { view, stockTakeId: Number(second) };
    if (parts.length === 3 && third === "review") return { view, stockTakeId: Number(second), stockTakeReview: true };
  }
  return null;
}

export interface Landing {
  /** What to show. */
  place: Place;
  /** The path to put in the address bar instead (replacing the entry); null: the address stays. */
  redirect: string | null;
  /** The view the address named that this user may not see (the screen says so); null otherwise. */
  denied: View | null;
}

/**
 * Where a signed-in user lands on `pathname`: the place it names when their role may see its view
 * (allowedViews, the one rule of who sees what); else, like the root and any unknown path, their
 * default view.
 */
export function landing(pathname: string, role: Role, permissions: Permissions): Landing {
  const place = placeOf(pathname);
  if (place && allowedViews(role, permissions).includes(place.view)) return { place, redirect: null, denied: null };
  const view = defaultView(role, permissions);
  return { place: { view }, redirect: VIEW_PATHS[view], denied: place ? place.view : null };
}

/** The view the first screen shows on `pathname`, for the app's preloads and the page's head alike. */
export function firstScreen(pathname: string, role: Role, permissions: Permissions): View {
  return landing(pathname, role, permissions).place.view;
}
