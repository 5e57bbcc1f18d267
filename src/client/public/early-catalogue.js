// Starts the inventory's catalogue download while the app's own code is still loading: for the
// user this browser last saw signed in ("blez-signed-in", written by the app after each session
// check), when their first screen is the inventory (every role but the streamer's). The product
// store takes the answer once, for that same user (features/products/api/list-products.ts); the
// session cookie decides, as for any request. Unclaimed, it is dropped after 30 seconds.
(() => {
  try {
    const kept = JSON.parse(localStorage.getItem("blez-signed-in") || "null");
    const user = kept?.user;
    const permissions = kept?.permissions || {};
    if (!user || user.role === "streamer" || permissions.canManageProducts === false || typeof fetch !== "function") return;
    const response = fetch("/api/products?catch_up=true", { credentials: "include", headers: { Accept: "application/json" } });
    response.catch(() => {});
    const early = { userId: user.id, response };
    window.__blezEarlyCatalogue = early;
    setTimeout(() => {
      if (window.__blezEarlyCatalogue === early) window.__blezEarlyCatalogue = undefined;
    }, 30000);
  } catch {
    // storage unavailable or unreadable: the app asks for the catalogue itself
  }
})();
