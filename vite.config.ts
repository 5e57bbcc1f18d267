import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { VitePWA } from "vite-plugin-pwa";
import { THEME_COLOR } from "./src/client/features/theme/theme-colors";

/**
 * The inventory screen's code, listed in the page's head (`<meta name="blez-inventory-code">`:
 * its chunk and the chunks it imports that the entry does not): public/early-catalogue.js preloads
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
        const script = '<script src="/early-catalogue.js"></script>';
        if (!html.includes(script)) throw new Error("inventoryCodeInHead: index.html has no early-catalogue.js script");
        return html.replace(script, `<meta name="blez-inventory-code" content="${files.map((f) => `/${f}`).join(" ")}" />\n    ${script}`);
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
        navigateFallback: "/index.html",
        navigateFallbackDenylist: [/^\/api(\/|$)/, /^\/socket\.io(\/|$)/],
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
