// Starts the inventory's catalogue download while the app's own code is still loading, and parses
// it there too, in slices: for the user this browser last saw signed in ("blez-signed-in", written
// by the app after each session check), when their first screen is the inventory (every role but
// the streamer's). The product store takes the list once, for that same user
// (features/products/api/list-products.ts takeEarlyCatalogue); the session cookie decides, as for
// any request. Unclaimed, it is dropped after 30 seconds. A first page of the list, and for any
// returning user the session check (/api/auth/me, /api/auth/verify-permissions), are sent from
// here too, as answers lib/http.ts takes (`early`); and the inventory screen's code (the files the
// build lists in <meta name="blez-inventory-code">) is preloaded, as the app preloads it once running.
(() => {
  // As lib/json-slices.ts parseResponseInSlices (this file is not part of the bundle: keep the two
  // alike): the body read a chunk at a time and parsed in slices of about SLICE_CHARS characters
  // as it arrives, with the browser free in between.
  const SLICE_CHARS = 512 * 1024;
  const BETWEEN = '},{"';
  // Any other task first (lib/slices.ts yieldToOtherWork): the app's start and first screen go before the parse.
  const yieldNow = () =>
    typeof globalThis.scheduler?.postTask === "function"
      ? globalThis.scheduler.postTask(() => {}, { priority: "background" })
      : new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            channel.port1.close();
            resolve();
          };
          channel.port2.postMessage(null);
        });
  const parseInSlices = async (response) => {
    const out = [];
    let text = "";
    let layout = null;
    let from = SLICE_CHARS;
    // Parses the next slice when its text is all there; answers whether it did.
    const next = () => {
      if (layout === null && text.length >= 2) {
        layout = text.startsWith("[{") ? "sliced" : "whole";
        if (layout === "sliced") text = text.slice(1);
      }
      if (layout !== "sliced") return false;
      for (;;) {
        const cut = text.indexOf(BETWEEN, from);
        if (cut < 0) {
          from = Math.max(from, text.length - BETWEEN.length + 1);
          return false;
        }
        let part = null;
        try {
          part = JSON.parse(`[${text.slice(0, cut + 1)}]`);
        } catch {
          part = null;
        }
        if (part === null) {
          from = cut + 1;
          continue;
        }
        for (const item of part) out.push(item);
        text = text.slice(cut + 2);
        from = SLICE_CHARS;
        return true;
      }
    };
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      text += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let parsed = false;
      while (next()) {
        parsed = true;
        await yieldNow();
      }
      if (done) break;
      if (!parsed) await yieldNow();
    }
    if (layout !== "sliced") return JSON.parse(text);
    for (const item of JSON.parse(`[${text}`)) out.push(item);
    return out;
  };

  try {
    const kept = JSON.parse(localStorage.getItem("blez-signed-in") || "null");
    const user = kept?.user;
    const permissions = kept?.permissions || {};
    if (!user || typeof fetch !== "function") return;
    const ask = (url) => fetch(url, { credentials: "include", headers: { Accept: "application/json" } });
    // Small GETs every first screen waits for (the app loads and runs its code first otherwise):
    // sent now, taken once by lib/http.ts (`early`) as its own request's answer; the server
    // decides as for any request. Unclaimed, dropped after 30 seconds.
    const answers = {};
    const early = (path) => {
      answers[path] = ask(path);
      answers[path].catch(() => {}); // unclaimed, a failure is nobody's to report
    };
    const session = () => {
      early("/api/auth/me");
      early("/api/auth/verify-permissions");
      window.__blezEarlyAnswers = answers;
      setTimeout(() => {
        if (window.__blezEarlyAnswers === answers) window.__blezEarlyAnswers = undefined;
      }, 30000);
    };
    // The inventory screen's code: fetched beside the catalogue, not once the app's own code has
    // run (the app's import then finds it loaded). The same links as Vite's preload makes. Added
    // after the requests: the session check and the first page go first on the connections.
    const preloadInventoryCode = () => {
      const code = document.querySelector('meta[name="blez-inventory-code"]')?.getAttribute("content") ?? "";
      for (const href of code.split(" ").filter(Boolean)) {
        const link = document.createElement("link");
        link.rel = "modulepreload";
        link.crossOrigin = "";
        link.href = href;
        document.head.append(link);
      }
    };
    if (user.role === "streamer" || permissions.canManageProducts === false) return session();
    if (typeof TextDecoder !== "function" || typeof ReadableStream !== "function") {
      session();
      return preloadInventoryCode();
    }
    // A first page first (FIRST_PAGE_PRODUCTS in contract/rules.ts: keep the two alike), shown
    // while the whole list downloads.
    early("/api/products?limit=100");
    const response = ask("/api/products?catch_up=true");
    // The products and the revision header, or null (an error status, a failure: the app asks again).
    const list = response
      .then(async (r) => {
        if (!r.ok) return null;
        const products = await parseInSlices(r);
        return Array.isArray(products) ? { products, revision: r.headers.get("X-Catalogue-Revision") } : null;
      })
      .catch(() => null);
    const catalogue = { userId: user.id, list };
    window.__blezEarlyCatalogue = catalogue;
    session();
    preloadInventoryCode();
    setTimeout(() => {
      if (window.__blezEarlyCatalogue === catalogue) window.__blezEarlyCatalogue = undefined;
    }, 30000);
  } catch {
    // storage unavailable or unreadable: the app asks for the catalogue itself
  }
})();
