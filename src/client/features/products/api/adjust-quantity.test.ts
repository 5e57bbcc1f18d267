// @vitest-environment node
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { ApiError } from "../../../lib/http";
import { adjustQuantity, newIdempotencyKey } from "./adjust-quantity";

let server: Server | null = null;
afterEach(async () => {
  if (server) {
    server.closeAllConnections();
    await new Promise((r) => server?.close(r));
    server = null;
  }
});

/** A server that answers the n-th request with `answers[n]` ("drop" closes the connection unanswered). */
async function serve(answers: Array<"drop" | { status: number; body: unknown }>) {
  const seen: Array<{ key: string | undefined; url: string | undefined; body: string }> = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ key: req.headers["idempotency-key"] as string | undefined, url: req.url, body });
      const answer = answers[seen.length - 1] ?? { status: 500, body: {} };
      if (answer === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(answer.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return { seen, port: (server.address() as AddressInfo).port };
}

const noWait = async () => {};

describe("adjustQuantity", () => {
  it("retries a lost answer with the same Idempotency-Key", async () => {
    const product = { id: 3, quantity_on_hand: 9 };
    const { seen, port } = await serve(["drop", { status: 503, body: {} }, { status: 200, body: product }]);
    // apiFetch takes any URL; point it at the test server through the path.
    const key = newIdempotencyKey();
    const result = await adjustQuantity(3, { quantity_change: -1, reason: "Streamer adjustment" }, key, noWait, `http://127.0.0.1:${port}`);
    expect(result).toEqual(product);
    expect(seen).toHaveLength(3);
    for (const req of seen) {
      expect(req.key).toBe(key);
      expect(req.url).toBe("/api/products/3/quantity");
      expect(JSON.parse(req.body)).toEqual({ quantity_change: -1, reason: "Streamer adjustment" });
    }
  });

  it("does not retry a refusal (4xx) and keeps the server's reason", async () => {
    const { seen, port } = await serve([{ status: 409, body: { error: "Insufficient stock" } }]);
    const err = await adjustQuantity(3, { quantity_change: -1 }, "k-1", noWait, `http://127.0.0.1:${port}`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("Insufficient stock");
    expect(seen).toHaveLength(1);
  });

  it("makes a new key per change", () => {
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    expect(newIdempotencyKey()).toMatch(/^[\x20-\x7e]{1,100}$/);
  });
});
