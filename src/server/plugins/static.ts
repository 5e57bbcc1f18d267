import { existsSync } from "node:fs";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance } from "fastify";
import { isServerPath } from "../server-addresses.js";

const PLACEHOLDER = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Blez Inventory</title></head>
<body><main><h1>Blez Inventory</h1><p>The client has not been built yet. Run <code>npm run build</code>.</p></main></body></html>`;

/** Files under assets/ whose names carry Vite's content hash (e.g. index-Df8zE-l_.js, or its .br/.gz copy). */
const HASHED_ASSET = /[\\/]assets[\\/][^\\/]+-[A-Za-z0-9_-]{8,}\.[a-z0-9]+(\.br|\.gz)?$/;

/** A file's path: its last part has an extension (`/assets/index-x.js`, `/icons/icon.png`). */
const isFilePath = (path: string) => /\.[A-Za-z0-9]+$/.test(path.slice(path.lastIndexOf("/") + 1));

/**
 * Serves the built client. A GET of any other path outside /api and /socket.io that names no file
 * is one of the client's own addresses (`/reports?from=...`, `/inventory/products/12`, or one it
 * does not know and sends to the user's first screen): it gets index.html, and the client's router
 * shows the place. Unknown API routes, other methods and files that are not there answer a JSON 404
 * (a missing script is not answered with a page).
 */
export async function staticClient(app: FastifyInstance, opts: { serve: boolean }) {
  const root = app.config.CLIENT_DIR;
  const built = opts.serve && existsSync(`${root}/index.html`);
  if (built) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: ["index.html"],
      // The build writes .br and .gz beside each file: sent as they are to clients that accept them.
      preCompressed: true,
      // Vite names built assets by content hash: cache them for good; everything else is revalidated.
      setHeaders: (reply, path) => {
        reply.header("cache-control", HASHED_ASSET.test(path) ? "public, max-age=31536000, immutable" : "no-cache");
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?")[0] ?? "/";
    if (request.method !== "GET" || isServerPath(path) || isFilePath(path)) {
      return reply.code(404).send({ error: `Route ${request.method} ${path} not found` });
    }
    if (!built) return reply.type("text/html").send(PLACEHOLDER);
    return reply.sendFile("index.html");
  });
}
