// A returning user's first requests, sent from the page's head while the app's own code is still
// loading. Built by vite.config.ts (earlyScript) into /early-catalogue.js, a small classic script
// of its own that index.html runs before the app's bundle; it imports the app's own modules, so
// the rules below are the app's, not copies.
//
// For the user this browser last saw signed in (lib/kept-session.ts): the session check
// (/api/auth/me, /api/auth/verify-permissions); and when the first screen is the inventory (the
// address and the role decide, shell/routes.ts firstScreen) the catalogue's first page and the
// whole list, parsed here in slices as it downloads (lib/json-slices.ts), and the inventory
// screen's code. The app takes each once (lib/early-requests.ts); unclaimed, they are dropped.
import type { Product } from "../../contract/products";
import { CATALOGUE_REVISION_HEADER } from "../../contract/rules";
import { EARLY_PATHS, putEarlyAnswers, putEarlyCatalogue } from "../lib/early-requests";
import { parseResponseInSlices } from "../lib/json-slices";
import { rememberedSession } from "../lib/kept-session";
import { firstScreen, isPublicPath } from "../shell/routes";

function start(): void {
  const kept = rememberedSession();
  // The public buylist asks for no session (app.tsx), so nothing is sent early for it.
  if (!kept || typeof fetch !== "function" || isPublicPath(location.pathname)) return;
  const ask = (path: string) => fetch(path, { credentials: "include", headers: { Accept: "application/json" } });
  const answers: Record<string, Promise<Response>> = {};
  const early = (path: string) => {
    const answer = ask(path);
    answer.catch(() => {}); // unclaimed, a failure is nobody's to report
    answers[path] = answer;
  };
  const session = () => {
    early(EARLY_PATHS.me);
    early(EARLY_PATHS.permissions);
    putEarlyAnswers(answers);
  };
  if (firstScreen(location.pathname, kept.user.role, kept.permissions) !== "inventory") {
    session();
    return;
  }
  if (typeof TextDecoder !== "function" || typeof ReadableStream !== "function") {
    session();
    preloadInventoryCode();
    return;
  }
  // The first page first: shown while the whole list downloads.
  early(EARLY_PATHS.firstPage);
  const list = ask(EARLY_PATHS.catalogue)
    .then(async (response) => {
      if (!response.ok) return null;
      const products = await parseResponseInSlices<Product>(response);
      return Array.isArray(products) ? { products, revision: response.headers.get(CATALOGUE_REVISION_HEADER) } : null;
    })
    // An error status or a failure: the app asks again.
    .catch(() => null);
  putEarlyCatalogue({ userId: kept.user.id, list });
  session();
  preloadInventoryCode();
}

/**
 * The inventory screen's code (the files the build lists in <meta name="blez-inventory-code">,
 * vite.config.ts inventoryCodeInHead): fetched beside the catalogue, not once the app's own code
 * has run. The same links as Vite's preload makes; added after the requests, so the session check
 * and the first page go first on the connections.
 */
function preloadInventoryCode(): void {
  const code = document.querySelector('meta[name="blez-inventory-code"]')?.getAttribute("content") ?? "";
  for (const href of code.split(" ").filter(Boolean)) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.crossOrigin = "";
    link.href = href;
    document.head.append(link);
  }
}

try {
  start();
} catch {
  // storage unavailable or unreadable: the app asks for everything itself
}
