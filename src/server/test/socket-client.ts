import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "../../contract/events.js";

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
export type Received = { event: string; payload: unknown };

/** How long a test waits for an expected event before failing (a guard against hanging, not a timing check). */
const WAIT_MS = 15_000;

/**
 * A real socket.io client as the browser uses it (polling first, then websocket upgrade),
 * recording everything the server sends, for tests.
 */
export class TestSocket {
  readonly socket: ClientSocket;
  readonly received: Received[] = [];
  private waiters: Array<() => void> = [];

  constructor(url: string, opts: { cookie?: string; transports?: Array<"polling" | "websocket"> } = {}) {
    this.socket = io(url, {
      path: "/socket.io",
      transports: opts.transports ?? ["polling", "websocket"],
      reconnection: false,
      forceNew: true,
      extraHeaders: opts.cookie ? { cookie: opts.cookie } : undefined,
    });
    this.socket.onAny((event, payload) => this.record(event, payload));
    this.socket.on("connect", () => this.record("connect", null));
    this.socket.on("disconnect", (reason) => this.record("disconnect", reason));
    this.socket.io.on("open", () => this.socket.io.engine.on("upgrade", () => this.record("upgrade", null)));
  }

  private record(event: string, payload: unknown) {
    this.received.push({ event, payload });
    for (const wake of this.waiters.splice(0)) wake();
  }

  /** Names of the events received so far. */
  get names(): string[] {
    return this.received.map((r) => r.event);
  }

  /** The first event named `event` at or after position `from` that satisfies `match`; waits for it. */
  async next<T = unknown>(event: string, match: (payload: T) => boolean = () => true, from = 0): Promise<T> {
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const hit = this.received.slice(from).find((r) => r.event === event && match(r.payload as T));
      if (hit) return hit.payload as T;
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new Error(`no "${event}" matching within ${WAIT_MS} ms; received: ${JSON.stringify(this.received)}`);
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  /** The latest payload of `event`, if any. */
  last<T = unknown>(event: string): T | undefined {
    return this.received.filter((r) => r.event === event).at(-1)?.payload as T | undefined;
  }

  async connected(): Promise<this> {
    await this.next("connect");
    return this;
  }

  authenticate(token: string): void {
    this.socket.emit("authenticate", { token });
  }

  close(): void {
    this.socket.disconnect();
  }
}
