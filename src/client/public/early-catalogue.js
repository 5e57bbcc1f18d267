// Starts the inventory's catalogue download while the app's own code is still loading, and parses
// it there too, in slices: for the user this browser last saw signed in ("blez-signed-in", written
// by the app after each session check), when their first screen is the inventory (every role but
// the streamer's). The product store takes the result once, for that same user
// (features/products/api/list-products.ts takeEarlyCatalogue); the session cookie decides, as for
// any request. Unclaimed, it is dropped after 30 seconds.
(() => {
  /** As lib/json-slices.ts parseArrayInSlices (this file is not part of the bundle): about this many characters between two yields. */
  const SLICE_CHARS = 512 * 1024;
  const BETWEEN = '},{"';
  const yieldNow = () =>
    new Promise((resolve) => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => {
        channel.port1.close();
        resolve();
      };
      channel.port2.postMessage(null);
    });
  const parseInSlices = async (text) => {
    if (text.length <= SLICE_CHARS || !text.startsWith("[{")) return JSON.parse(text);
    const out = [];
    let start = 1;
    let from = start + SLICE_CHARS;
    for (;;) {
      const cut = text.indexOf(BETWEEN, from);
      if (cut < 0) break;
      let part = null;
      try {
        part = JSON.parse(`[${text.slice(start, cut + 1)}]`);
      } catch {
        part = null;
      }
      if (part === null) {
        from = cut + 1;
        continue;
      }
      for (const item of part) out.push(item);
      start = cut + 2;
      from = start + SLICE_CHARS;
      await yieldNow();
    }
    const rest = JSON.parse(`[${text.slice(start)}`);
    for (const item of rest) out.push(item);
    return out;
  };

  try {
    const kept = JSON.parse(localStorage.getItem("blez-signed-in") || "null");
    const user = kept?.user;
    const permissions = kept?.permissions || {};
    if (!user || user.role === "streamer" || permissions.canManageProducts === false || typeof fetch !== "function") return;
    const response = fetch("/api/products?catch_up=true", { credentials: "include", headers: { Accept: "application/json" } });
    // The products and the revision header, or null (an error status, a failure: the app asks again).
    const list = response
      .then(async (r) => {
        if (!r.ok) return null;
        const products = await parseInSlices(await r.text());
        return Array.isArray(products) ? { products, revision: r.headers.get("X-Catalogue-Revision") } : null;
      })
      .catch(() => null);
    const early = { userId: user.id, list };
    window.__blezEarlyCatalogue = early;
    setTimeout(() => {
      if (window.__blezEarlyCatalogue === early) window.__blezEarlyCatalogue = undefined;
    }, 30000);
  } catch {
    // storage unavailable or unreadable: the app asks for the catalogue itself
  }
})();
