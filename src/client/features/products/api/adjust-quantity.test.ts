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

type Answer = "drop" | { status: number; body: unknown };

/** A server that answers the n-th request with `answer(n)` ("drop" closes the connection unanswered). */
async function serve(answer: (n: number) => Answer) {
  const seen: Array<{ key: string | undefined; url: string | undefined; body: string }> = [];
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      seen.push({ key: req.headers["idempotency-key"] as string | undefined, url: req.url, body });
      const a = answer(seen.length - 1);
      if (a === "drop") {
        req.socket.destroy();
        return;
      }
      res.writeHead(a.status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(a.body));
    });
  });
  await new Promise<void>((r) => server?.listen(0, "127.0.0.1", r));
  return { seen, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** A clock that only moves when the retries wait: no real waiting in these tests. */
function fakeClock() {
  const clock = {
    t: 0,
    now: () => clock.t,
    wait: async (ms: number) => {
      clock.t += ms;
    },
  };
  return clock;
}

const DOWN = { status: 503, body: { error: "Database unavailable. Please try again shortly." } };

describe("adjustQuantity", () => {
  it("retries a lost answer with the same Idempotency-Key", async () => {
    const product = { id: 3, quantity_on_hand: 9 };
    const { seen, origin } = await serve((n) => (["drop", DOWN][n] as Answer) ?? { status: 200, body: product });
    const key = newIdempotencyKey();
    const clock = fakeClock();
    const result = await adjustQuantity(3, { quantity_change: -1, reason: "Streamer adjustment" }, key, { origin, ...clock });
    expect(result).toEqual(product);
    expect(seen).toHaveLength(3);
    for (const req of seen) {
      expect(req.key).toBe(key);
      expect(req.url).toBe("/api/products/3/quantity");
      expect(JSON.parse(req.body)).toEqual({ quantity_change: -1, reason: "Streamer adjustment" });
    }
  });

  it("keeps retrying through a 25 s database restart, with the same key, and ends applied once", async () => {
    const clock = fakeClock();
    const product = { id: 3, quantity_on_hand: 8 };
    // The database is back 25 s after the first try.
    const { seen, origin } = await serve(() => (clock.t < 25_000 ? DOWN : { status: 200, body: product }));
    const result = await adjustQuantity(3, { quantity_change: -1 }, "k-restart", { origin, ...clock });
    expect(result).toEqual(product);
    expect(clock.t).toBeGreaterThanOrEqual(25_000);
    expect(new Set(seen.map((r) => r.key))).toEqual(new Set(["k-restart"]));
    expect(seen.length).toBeGreaterThan(5);
  });

  it("gives up only after at least 30 s, with the server's reason", async () => {
    const clock = fakeClock();
    const { seen, origin } = await serve(() => DOWN);
    const err = await adjustQuantity(3, { quantity_change: -1 }, "k-down", { origin, ...clock }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("Database unavailable. Please try again shortly.");
    expect((err as ApiError).status).toBe(503);
    expect(clock.t).toBeGreaterThanOrEqual(30_000);
    expect(seen.every((r) => r.key === "k-down")).toBe(true);
  });

  it("does not retry a refusal (4xx) and keeps the server's reason", async () => {
    const { seen, origin } = await serve(() => ({ status: 409, body: { error: "Insufficient stock" } }));
    const err = await adjustQuantity(3, { quantity_change: -1 }, "k-1", { origin, ...fakeClock() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe("Insufficient stock");
    expect(seen).toHaveLength(1);
  });

  it("makes a new key per change", () => {
    expect(newIdempotencyKey()).not.toBe(newIdempotencyKey());
    expect(newIdempotencyKey()).toMatch(/^[\x20-\x7e]{1,100}$/);
  });
});
