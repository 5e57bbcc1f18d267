import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";

/** The API server `npm run dev` starts beside Vite. */
const API_TARGET = `http://localhost:${process.env.API_PORT ?? 3001}`;

export default defineConfig({
  root: "src/client",
  publicDir: "public",
  plugins: [
    react(),
    tailwindcss(),
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
