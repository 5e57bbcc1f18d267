import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { vi } from "vitest";

export interface TestServer {
  origin: string;
  /** Stops the server and gives the app's requests back to the real fetch. */
  close(): Promise<void>;
}

/**
 * A real HTTP server for a client test (node environment): `handle` hears each request with its
 * whole body. Until `close`, the app's same-origin requests ("/api/...", as the app makes them
 * in the browser) go to it, so the calls under test keep their own paths.
 */
export async function startTestServer(handle: (req: IncomingMessage, res: ServerResponse, body: string) => void): Promise<TestServer> {
  const server = createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8");
    req.on("data", (chunk: string) => {
      body += chunk;
    });
    req.on("end", () => handle(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fetch = globalThis.fetch;
  vi.stubGlobal("fetch", (input: RequestInfo | URL, init?: RequestInit) =>
    fetch(typeof input === "string" && input.startsWith("/") ? `${origin}${input}` : input, init),
  );
  return {
    origin,
    close: async () => {
      vi.unstubAllGlobals();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Answers `body` as JSON with `status`. */
export function answerJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}
