import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** One request a receiver got. */
export interface Received {
  headers: Record<string, string>;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, unknown> };
  at: number;
}

/** What the receiver does with a request: answer with a status (after a delay, with a body), never answer, or drop the connection. */
export type Answer = { status: number; delayMs?: number; body?: string } | "hang" | "reset";

/**
 * A real HTTP endpoint for webhook tests: records every request and answers as `answer` says
 * (200 by default). `hang` keeps the request open until the sender gives up or `close()`; `reset`
 * destroys the connection without an answer.
 */
export class Receiver {
  readonly received: Received[] = [];
  answer: (request: Received, index: number) => Answer = () => ({ status: 200 });
  private readonly open = new Set<ServerResponse>();
  private waiters: Array<() => void> = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(host = "127.0.0.1"): Promise<Receiver> {
    let receiver: Receiver | undefined;
    const server = createServer((req, res) => receiver?.handle(req, res));
    await new Promise<void>((resolve) => server.listen(0, host, resolve));
    const { port } = server.address() as AddressInfo;
    receiver = new Receiver(server, `http://${host}:${port}/hook`);
    return receiver;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const entry: Received = { headers, body, json: JSON.parse(body), at: Date.now() };
      const index = this.received.length;
      this.received.push(entry);
      for (const wake of this.waiters.splice(0)) wake();
      const answer = this.answer(entry, index);
      if (answer === "hang") {
        this.open.add(res);
        res.on("close", () => this.open.delete(res));
        return;
      }
      if (answer === "reset") {
        req.socket.destroy();
        return;
      }
      const reply = () => {
        res.statusCode = answer.status;
        res.end(answer.body ?? (answer.status >= 300 ? "endpoint says no" : "ok"));
      };
      if (answer.delayMs) setTimeout(reply, answer.delayMs);
      else reply();
    });
  }

  /** The requests of one type. */
  ofType(type: string): Received[] {
    return this.received.filter((r) => r.json.type === type);
  }

  /** Waits until `count` requests match (or fails after `timeoutMs`). */
  async waitFor(predicate: (r: Received) => boolean, count = 1, timeoutMs = 10_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.received.filter(predicate);
      if (found.length >= count) return found;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new Error(`waited ${timeoutMs} ms for ${count} webhook request(s), got ${found.length} (of ${this.received.length})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, Math.min(left, 200));
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  async close(): Promise<void> {
    for (const res of this.open) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Polls `check` until it returns a value that is not undefined (or fails after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined>, timeoutMs = 10_000, what = "condition"): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
