import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, defineConfig, type Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { VitePWA } from "vite-plugin-pwa";
import { THEME_COLOR } from "./src/client/features/theme/theme-colors.js";

/** The page's head script's source (src/client/early/), served and built as `/early-catalogue.js`. */
const EARLY_ENTRY = "early/early-catalogue.ts";
const EARLY_FILE = "early-catalogue.js";

/** The early script as one classic script (an IIFE: it runs as soon as the head is parsed, before the app's modules), and its source map. */
async function buildEarlyScript(root: string): Promise<{ fileName: string; source: string }[]> {
  const result = await build({
    configFile: false,
    root,
    publicDir: false,
    logLevel: "warn",
    build: {
      write: false,
      minify: true,
      sourcemap: true,
      lib: { entry: EARLY_ENTRY, formats: ["iife"], name: "blezEarly", fileName: () => EARLY_FILE },
    },
  });
  const outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => ("output" in r ? r.output : []));
  return outputs.map((o) => ({ fileName: o.fileName, source: o.type === "chunk" ? o.code : String(o.source) }));
}

/**
 * `src/client/early/early-catalogue.ts` as `/early-catalogue.js`: a returning user's first requests,
 * sent from the page's head while the app's bundle loads. A second build of its own (Vite's lib
 * mode), not an entry of the app's: it must be one small classic script that shares no chunk with
 * the app, and it imports the app's own parser, constants and first-screen rule. The dev server
 * builds it on each request.
 */
function earlyScript(): Plugin {
  let root = "";
  return {
    name: "blez-early-script",
    configResolved(config) {
      root = config.root;
    },
    configureServer(server) {
      server.middlewares.use(async (req, res, next) => {
        if (req.url?.split("?")[0] !== `/${EARLY_FILE}`) return next();
        try {
          const script = (await buildEarlyScript(root)).find((o) => o.fileName === EARLY_FILE);
          res.setHeader("Content-Type", "text/javascript");
          res.end(script?.source ?? "");
        } catch (err) {
          next(err);
        }
      });
    },
    async generateBundle() {
      for (const { fileName, source } of await buildEarlyScript(root)) this.emitFile({ type: "asset", fileName, source });
    },
  };
}

/**
 * The inventory screen's code, listed in the page's head (`<meta name="blez-inventory-code">`:
 * its chunk and the chunks it imports that the entry does not): the early script (earlyScript) preloads
 * them for a returning user whose first screen is the inventory, before the app's own code runs.
 */
function inventoryCodeInHead(): Plugin {
  return {
    name: "blez-inventory-code-in-head",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle, chunk: entry }) {
        const chunks = new Map<string, { imports: string[] }>();
        let screen: string | undefined;
        for (const out of Object.values(bundle ?? {})) {
          if (out.type !== "chunk") continue;
          chunks.set(out.fileName, out);
          if (out.facadeModuleId?.endsWith("/features/inventory/components/inventory-view.tsx")) screen = out.fileName;
        }
        if (!entry || !screen) throw new Error("inventoryCodeInHead: no entry chunk or no inventory-view chunk");
        const withImports = (file: string, into = new Set<string>()) => {
          if (!into.has(file)) {
            into.add(file);
            for (const dep of chunks.get(file)?.imports ?? []) withImports(dep, into);
          }
          return into;
        };
        const loaded = withImports(entry.fileName);
        const files = [...withImports(screen)].filter((file) => !loaded.has(file));
        // Right before the script that reads it.
        const script = /<script src="\/early-catalogue\.js"[^>]*><\/script>/;
        if (!script.test(html)) throw new Error("inventoryCodeInHead: index.html has no early-catalogue.js script");
        return html.replace(
          script,
          (tag) => `<meta name="blez-inventory-code" content="${files.map((f) => `/${f}`).join(" ")}" />\n    ${tag}`,
        );
      },
    },
  };
}

/** The API server `npm run dev` starts beside Vite. */
const API_TARGET = `http://localhost:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [
    react(),
    tailwindcss(),
    earlyScript(),
    inventoryCodeInHead(),
    // An installable app: a web app manifest and a service worker (Workbox) that keeps the built
    // app, so it opens from the home screen without the network. Registered by main.tsx in
    // production builds only; API calls and the live connection never go through its cache.
    VitePWA({
      injectRegister: false,
      registerType: "autoUpdate",
      manifest: {
        name: "Blez Inventory",
        short_name: "Blez",
        description: "Scan and sell during a live stream; the shop's inventory.",
        start_url: "/",
        scope: "/",
        display: "standalone",
        orientation: "portrait",
        theme_color: THEME_COLOR.light,
        background_color: "#ffffff",
        icons: [
          { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png" },
          { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png" },
          { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
        ],
      },
      workbox: {
        // The app itself (not source maps, not the .br/.gz copies); the barcode decoder's
        // WebAssembly is kept once used (below), not downloaded with every install.
        globPatterns: ["**/*.{js,css,html,png,svg,ico,webmanifest}"],
        // Every address of the app (/reports?from=..., /inventory/products/12) opens it offline too,
        // as the server answers them (plugins/static.ts): not the API's, not a file's (/blez-ca.crt).
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/, /\/[^/?]*\.[A-Za-z0-9]+(\?.*)?$/],
        runtimeCaching: [
          {
            urlPattern: ({ url, sameOrigin }) => sameOrigin && url.pathname.endsWith(".wasm"),
            handler: "CacheFirst",
            options: { cacheName: "blez-decoder", expiration: { maxEntries: 4 } },
          },
        ],
        cleanupOutdatedCaches: true,
        clientsClaim: true,
        skipWaiting: true,
      },
    }),
    // .br and .gz beside each asset, served by @fastify/static's preCompressed: no compression per request.
    compression({
      algorithms: [defineAlgorithm("brotliCompress"), defineAlgorithm("gzip", { level: 9 })],
      exclude: [/\.(map|png|jpe?g|webp|woff2?)$/],
    }),
  ],
  build: {
    outDir: "../../dist/client",
    emptyOutDir: true,
    sourcemap: true,
    // Read by scripts/first-screen-size.mjs (what the first screen loads).
    manifest: true,
  },
  server: {
    port: 3000,
    proxy: {
      "/api": API_TARGET,
      "/socket.io": { target: API_TARGET, ws: true },
    },
  },
});
