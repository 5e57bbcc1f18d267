import http from "node:http";

/** An HTTP answer with its raw (possibly compressed) body and how long it took. */
export interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** Send to last byte, in ms. */
  ms: number;
  /** performance.now() when sent and when the last byte arrived. */
  sentAt: number;
  doneAt: number;
}

export interface RequestOptions {
  method?: string;
  headers?: Record<string, string>;
  /** A JSON body (stringified here), or ready as a string or as its UTF-8 bytes. */
  json?: unknown;
  agent?: http.Agent;
  timeoutMs?: number;
  /** Called with performance.now() when the response headers arrive (time to first byte). */
  onHeaders?: (at: number) => void;
}

/** Keep-alive connections for ordinary calls; loops that must not queue behind others bring their own agent. */
export const sharedAgent = new http.Agent({ keepAlive: true, maxSockets: 32 });

export function newAgent(maxSockets = Number.POSITIVE_INFINITY): http.Agent {
  return new http.Agent({ keepAlive: true, maxSockets });
}

/** node:http rather than fetch: less overhead on a 2-core machine, and the compressed bytes stay visible. */
export function request(url: string, opts: RequestOptions = {}): Promise<Answer> {
  const body =
    opts.json === undefined || typeof opts.json === "string" || Buffer.isBuffer(opts.json) ? opts.json : JSON.stringify(opts.json);
  const headers: Record<string, string> = { ...opts.headers };
  if (body !== undefined) {
    headers["content-type"] = "application/json";
    headers["content-length"] = String(Buffer.byteLength(body));
  }
  return new Promise((resolve, reject) => {
    const sentAt = performance.now();
    const req = http.request(url, { method: opts.method ?? "GET", headers, agent: opts.agent ?? sharedAgent }, (res) => {
      opts.onHeaders?.(performance.now());
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => {
        const doneAt = performance.now();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), ms: doneAt - sentAt, sentAt, doneAt });
      });
      res.on("error", reject);
    });
    req.setTimeout(opts.timeoutMs ?? 180_000, () => req.destroy(new Error(`${opts.method ?? "GET"} ${url}: no answer in time`)));
    req.on("error", reject);
    req.end(body);
  });
}

export function parse<T>(answer: Answer): T {
  return JSON.parse(answer.body.toString("utf8")) as T;
}

/** The answer, or an error naming the call, its status and body. */
export function expectStatus(answer: Answer, what: string, ...ok: number[]): Answer {
  if (!ok.includes(answer.status)) {
    throw new Error(`${what}: HTTP ${answer.status} ${answer.body.toString("utf8").slice(0, 500)}`);
  }
  return answer;
}

/** Signs in and returns the session cookie (`blez_session=...`). */
export async function login(base: string, username: string, password: string): Promise<string> {
  const answer = expectStatus(
    await request(`${base}/api/auth/login`, { method: "POST", json: { username, password } }),
    `login ${username}`,
    200,
  );
  const setCookie = answer.headers["set-cookie"] ?? [];
  const cookie = setCookie.find((c) => c.startsWith("blez_session="));
  if (!cookie) throw new Error(`login ${username}: no session cookie`);
  return cookie.split(";")[0] as string;
}
