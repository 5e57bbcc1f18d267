import { io, type Socket } from "socket.io-client";
import { expectStatus, parse, request } from "./http.js";
import { sleep } from "./stats.js";

/**
 * Authenticated socket.io clients that watch `inventory_update`: when each event arrived (by the
 * tap it belongs to) and how many engine.io bytes came in while counting was on.
 */

interface InventoryEvent {
  type: string;
  data: { id?: number; quantity_on_hand?: number; idempotency_key?: string; product?: unknown; revision?: number };
}

/** How a tap is found among a socket's events: its Idempotency-Key, or (older servers) product id and new stock. */
export const tapKey = (id: number, quantityOnHand: number) => `q:${id}:${quantityOnHand}`;

export class WatchingSocket {
  readonly socket: Socket;
  /** First arrival (performance.now()) per idempotency key and per tapKey(). */
  readonly arrivals = new Map<string, number>();
  counting = false;
  bytes = 0;
  events = 0;
  eventsByType = new Map<string, number>();
  sawIdempotencyKey = false;
  sawProduct = false;
  disconnects = 0;

  constructor(readonly url: string) {
    this.socket = io(url, { path: "/socket.io", transports: ["websocket"], reconnection: false, forceNew: true });
    this.socket.io.on("open", () => {
      this.socket.io.engine.on("packet", (packet: { data?: unknown }) => {
        if (!this.counting) return;
        const d = packet.data;
        // One byte of engine.io packet type, plus the payload (the socket.io-encoded event).
        this.bytes += 1 + (typeof d === "string" ? Buffer.byteLength(d) : d instanceof ArrayBuffer ? d.byteLength : 0);
      });
    });
    this.socket.on("disconnect", () => {
      this.disconnects += 1;
    });
    this.socket.on("inventory_update", (event: InventoryEvent) => this.onEvent(event));
  }

  private onEvent(event: InventoryEvent) {
    const at = performance.now();
    if (!this.counting) return;
    this.events += 1;
    this.eventsByType.set(event.type, (this.eventsByType.get(event.type) ?? 0) + 1);
    const { id, quantity_on_hand, idempotency_key, product } = event.data ?? {};
    if (product) this.sawProduct = true;
    if (idempotency_key) {
      this.sawIdempotencyKey = true;
      if (!this.arrivals.has(idempotency_key)) this.arrivals.set(idempotency_key, at);
    }
    if (event.type === "quantity_changed" && id !== undefined && quantity_on_hand !== undefined) {
      const key = tapKey(id, quantity_on_hand);
      if (!this.arrivals.has(key)) this.arrivals.set(key, at);
    }
  }

  /** Connects, trades a fresh single-use token (GET /api/auth/socket-token) for `authenticated`. */
  async authenticate(cookie: string, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    if (!this.socket.connected) {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`socket to ${this.url} did not connect`)), timeoutMs);
        this.socket.once("connect", () => {
          clearTimeout(timer);
          resolve();
        });
        this.socket.once("connect_error", (err) => {
          clearTimeout(timer);
          reject(err);
        });
      });
    }
    const answer = expectStatus(await request(`${this.url}/api/auth/socket-token`, { headers: { cookie } }), "socket token", 200);
    const { token } = parse<{ token: string }>(answer);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("socket did not authenticate in time")), Math.max(1, deadline - Date.now()));
      this.socket.once("authenticated", () => {
        clearTimeout(timer);
        resolve();
      });
      this.socket.once("auth_error", (e: { message: string }) => {
        clearTimeout(timer);
        reject(new Error(`auth_error: ${e.message}`));
      });
      this.socket.emit("authenticate", { token });
    });
  }

  close(): void {
    this.socket.disconnect();
  }
}

/**
 * `count` sockets spread round-robin over `targets` (server URL and the session cookie of one of
 * its users), `parallel` connecting at a time.
 */
export async function connectSockets(
  targets: Array<{ url: string; cookie: string }>,
  count: number,
  parallel = 10,
): Promise<WatchingSocket[]> {
  const sockets: WatchingSocket[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const target = targets[i % targets.length] as { url: string; cookie: string };
      const s = new WatchingSocket(target.url);
      sockets.push(s);
      await s.authenticate(target.cookie);
    }
  };
  await Promise.all(Array.from({ length: parallel }, worker));
  // Presence (user_count) settles after the last join.
  await sleep(1_000);
  return sockets;
}
