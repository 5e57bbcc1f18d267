/**
 * Scripts for the browser, as text (a function would be sent as its compiled source, which tsx
 * may decorate with helpers the page does not have).
 *
 * PROBE runs before any of the page's own scripts, the same on the app and on the plain page:
 * - `firstRow`: performance.now() in the first animation frame with a product row (table) or card (grid) in the DOM;
 * - `longTasks`: every long task (start, duration) from the navigation on;
 * - while `recording`: each keydown's timeStamp, and in every animation frame what the screen
 *   shows: "<count in 'Showing N of M products'>|<barcode of the first row>", and the search box's value.
 */
export const PROBE = `(() => {
  const probe = (window.__probe = { firstRow: null, longTasks: [], recording: false, keys: [], frames: [] });
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) probe.longTasks.push([e.startTime, e.duration]);
    }).observe({ type: "longtask", buffered: true });
  } catch {}
  addEventListener("keydown", (e) => { if (probe.recording) probe.keys.push([e.timeStamp, e.key]); }, true);
  const ROW = '[data-testid="product-row"], [data-testid="product-card"]';
  const frame = () => {
    const now = performance.now();
    const row = document.querySelector(ROW);
    if (probe.firstRow === null && row) probe.firstRow = now;
    if (probe.recording) {
      const summary = document.querySelector('[data-testid="results-summary"]');
      const m = summary ? /Showing ([\\d,]+) of/.exec(summary.textContent || "") : null;
      const input = document.querySelector('input[type="search"]');
      probe.frames.push([now, (m ? m[1].replace(/,/g, "") : "-") + "|" + (row ? row.getAttribute("data-barcode") : ""), input ? input.value : null]);
    }
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
})();`;

/**
 * The plain page: the same list (GET /api/products?catch_up=true, the app's own request), the
 * same search (every term in the lower-cased name, vendor, barcode, set, number or location;
 * active products only), filtered synchronously on each input event, the first screenful of rows
 * written with the DOM API. No framework, no live updates: the floor the app is compared with.
 */
export const PLAIN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Plain inventory</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 0; padding: 16px; }
  input { width: 420px; padding: 8px; font-size: 16px; }
  .row { display: flex; height: 52px; align-items: center; border-top: 1px solid #ddd; }
  .row span { padding: 0 8px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .name { flex: 3; font-weight: 600; } .vendor { flex: 2; } .barcode { width: 160px; font-family: monospace; } .num { width: 64px; }
</style></head>
<body>
  <input type="search" aria-label="Search products" autocomplete="off">
  <p data-testid="results-summary">Loading products...</p>
  <div id="rows"></div>
<script>
(async () => {
  const box = document.querySelector("input");
  const summary = document.querySelector('[data-testid="results-summary"]');
  const body = document.getElementById("rows");
  const res = await fetch("/api/products?catch_up=true", { credentials: "include", headers: { Accept: "application/json" } });
  const products = await res.json();
  const fmt = (n) => n.toLocaleString("en-US");
  const visible = Math.ceil(innerHeight / 52) + 8;
  const cell = (cls, text) => { const s = document.createElement("span"); s.className = cls; s.textContent = text; return s; };
  const render = (list) => {
    summary.textContent = "Showing " + fmt(list.length) + " of " + fmt(products.length) + " products";
    const rows = [];
    for (let i = 0; i < Math.min(visible, list.length); i++) {
      const p = list[i];
      const row = document.createElement("div");
      row.className = "row";
      row.setAttribute("data-testid", "product-row");
      row.setAttribute("data-barcode", p.barcode);
      row.append(cell("name", p.product_name), cell("vendor", p.vendor), cell("barcode", p.barcode), cell("num", p.release_year ?? "-"), cell("num", p.quantity_on_hand));
      rows.push(row);
    }
    body.replaceChildren(...rows);
  };
  render(products.filter((p) => p.is_active !== false));
  let keys = null;
  const makeKeys = () => products.map((p) => [p.product_name, p.vendor, p.barcode, p.set_name ?? "", p.card_number ?? "", p.location ?? ""].join("\\u0000").toLowerCase());
  setTimeout(() => { keys ??= makeKeys(); }, 0);
  box.addEventListener("input", () => {
    keys ??= makeKeys();
    const terms = box.value.trim().toLowerCase().split(/\\s+/).filter(Boolean);
    const out = [];
    for (let i = 0; i < products.length; i++) {
      const p = products[i];
      if (p.is_active === false) continue;
      const k = keys[i];
      let ok = true;
      for (const t of terms) if (!k.includes(t)) { ok = false; break; }
      if (ok) out.push(p);
    }
    render(out);
  });
})();
</script>
</body></html>`;
