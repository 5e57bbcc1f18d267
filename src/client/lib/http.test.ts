// @vitest-environment node
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  ApiError,
  apiFetch,
  loadErrorText,
  NETWORK_ERROR_MESSAGE,
  normaliseError,
  onSessionEnded,
  TIMEOUT_ERROR_MESSAGE,
  UNEXPECTED_ERROR_MESSAGE,
} from "./http";

type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;
const routes = new Map<string, Handler>();
let server: Server;
let base = "";

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "Content-Type": "application/json" });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  routes.set("/ok", (req, res, body) =>
    json(res, 200, { method: req.method, contentType: req.headers["content-type"], custom: req.headers["x-test"], body }),
  );
  routes.set("/error-field", (_req, res) => json(res, 409, { error: "Insufficient stock", message: "ignored" }));
  routes.set("/message-field", (_req, res) => json(res, 400, { message: "Bad input here" }));
  routes.set("/no-message", (_req, res) => json(res, 418, { something: 1 }));
  routes.set("/server-error", (_req, res) => json(res, 503, {}));
  routes.set("/signed-out", (_req, res) => json(res, 401, { error: "Not signed in" }));
  routes.set("/forbidden", (_req, res) => json(res, 403, { error: "Forbidden" }));
  routes.set("/text-error", (_req, res) => {
    res.writeHead(502, { "Content-Type": "text/plain" });
    res.end("Bad gateway");
  });
  routes.set("/empty", (_req, res) => {
    res.writeHead(204);
    res.end();
  });
  routes.set("/slow", (_req, res) => {
    setTimeout(() => json(res, 200, {}), 2000).unref();
  });
  // The status and part of the body, then nothing more.
  routes.set("/stalled-body", (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
    res.write('{"id": 1, "product_name": "Ca');
  });
  // The status and part of the body, then the connection breaks.
  routes.set("/dropped-body", (_req, res) => {
    res.writeHead(200, { "Content-Type": "application/json", "Content-Length": "100" });
    res.write('{"id": 1, "product_name": "Ca', () => setTimeout(() => res.socket?.destroy(), 20));
  });
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => {
      body += c;
    });
    req.on("end", () => {
      const handler = routes.get(req.url ?? "");
      if (handler) handler(req, res, body);
      else json(res, 404, { error: "Not found" });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error("expected the request to fail");
}

describe("apiFetch", () => {
  it("sends JSON with the method, headers and body, and parses the answer", async () => {
    const res = await apiFetch<{ method: string; contentType: string; custom: string; body: string }>(`${base}/ok`, {
      method: "PUT",
      body: { quantity_change: -1 },
      headers: { "X-Test": "yes" },
    });
    expect(res).toEqual({
      method: "PUT",
      contentType: "application/json",
      custom: "yes",
      body: JSON.stringify({ quantity_change: -1 }),
    });
  });

  it("sends a FormData as multipart/form-data with its boundary, never as JSON", async () => {
    const form = new FormData();
    form.append("photo", new Blob(["pixels"], { type: "image/png" }), "card.png");
    const res = await apiFetch<{ method: string; contentType: string; body: string }>(`${base}/ok`, { method: "POST", body: form });
    expect(res.method).toBe("POST");
    const boundary = /^multipart\/form-data; boundary=(.+)$/.exec(res.contentType)?.[1];
    expect(boundary).toBeTruthy();
    expect(res.body).toContain(`--${boundary}`);
    expect(res.body).toContain('name="photo"; filename="card.png"');
    expect(res.body).toContain("pixels");
  });

  it("sends no Content-Type without a body", async () => {
    const res = await apiFetch<{ method: string; contentType?: string }>(`${base}/ok`, { method: "POST" });
    expect(res.method).toBe("POST");
    expect(res.contentType).toBeUndefined();
  });

  it("answers null for an empty body", async () => {
    expect(await apiFetch(`${base}/empty`)).toBeNull();
  });

  it("takes the message from the field error first", async () => {
    const err = await failure(apiFetch(`${base}/error-field`));
    expect(err.message).toBe("Insufficient stock");
    expect(err.status).toBe(409);
    expect(err.data).toEqual({ error: "Insufficient stock", message: "ignored" });
    expect(err.isClientError).toBe(true);
    expect(err.isServerError).toBe(false);
    expect(err.isNetworkError).toBe(false);
    expect(err.isTimeout).toBe(false);
  });

  it("falls back to the field message", async () => {
    const err = await failure(apiFetch(`${base}/message-field`));
    expect(err.message).toBe("Bad input here");
    expect(err.status).toBe(400);
  });

  it("reads 'HTTP {status} Error' when the body has neither", async () => {
    const err = await failure(apiFetch(`${base}/no-message`));
    expect(err.message).toBe("HTTP 418 Error");
    expect(err.isClientError).toBe(true);
  });

  it("flags 5xx answers as server errors", async () => {
    const err = await failure(apiFetch(`${base}/server-error`));
    expect(err.message).toBe("HTTP 503 Error");
    expect(err.isServerError).toBe(true);
    expect(err.isClientError).toBe(false);
    const text = await failure(apiFetch(`${base}/text-error`));
    expect(text.message).toBe("HTTP 502 Error");
    expect(text.data).toBe("Bad gateway");
  });

  it("reports a network error when nothing answers", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const err = await failure(apiFetch(`http://127.0.0.1:${port}/x`));
    expect(err.message).toBe(NETWORK_ERROR_MESSAGE);
    expect(err.message).toBe("Network error. Please check your connection.");
    expect(err.isNetworkError).toBe(true);
    expect(err.status).toBeNull();
  });

  it("reports a timeout when the body stalls after the status arrived", async () => {
    const err = await failure(apiFetch(`${base}/stalled-body`, { timeoutMs: 300 }));
    expect(err.message).toBe(TIMEOUT_ERROR_MESSAGE);
    expect(err.isTimeout).toBe(true);
    expect(err.isNetworkError).toBe(false);
  });

  it("reports a network error when the connection drops while the body arrives", async () => {
    const err = await failure(apiFetch(`${base}/dropped-body`));
    expect(err.message).toBe(NETWORK_ERROR_MESSAGE);
    expect(err.isNetworkError).toBe(true);
    expect(err.status).toBeNull();
  });

  it("reports a timeout when the answer takes too long", async () => {
    const err = await failure(apiFetch(`${base}/slow`, { timeoutMs: 100 }));
    expect(err.message).toBe(TIMEOUT_ERROR_MESSAGE);
    expect(err.message).toBe("Request timeout. Please try again.");
    expect(err.isTimeout).toBe(true);
    expect(err.isNetworkError).toBe(false);
  });
});

describe("apiFetch: the one 401 handler", () => {
  it("tells the handler of every 401 before the caller hears of it, and only of 401s", async () => {
    const heard: string[] = [];
    const stop = onSessionEnded(() => heard.push("session ended"));
    try {
      const err = await failure(apiFetch(`${base}/signed-out`).finally(() => heard.push("caller")));
      expect(err.status).toBe(401);
      expect(err.message).toBe("Not signed in");
      await failure(apiFetch(`${base}/forbidden`));
      await failure(apiFetch(`${base}/server-error`));
      expect(heard).toEqual(["session ended", "caller"]);
    } finally {
      stop();
    }
  });

  it("a call made without a session (sign-in) answers its 401 to the caller alone", async () => {
    let heard = 0;
    const stop = onSessionEnded(() => heard++);
    try {
      expect((await failure(apiFetch(`${base}/signed-out`, { method: "POST", anonymous: true }))).status).toBe(401);
      expect(heard).toBe(0);
    } finally {
      stop();
    }
    await failure(apiFetch(`${base}/signed-out`));
    expect(heard).toBe(0);
  });
});

describe("normaliseError", () => {
  it("keeps an error's own text, else 'An unexpected error occurred'", () => {
    expect(normaliseError(new Error("Something broke")).message).toBe("Something broke");
    expect(normaliseError(new Error("")).message).toBe(UNEXPECTED_ERROR_MESSAGE);
    expect(normaliseError({ odd: true }).message).toBe("An unexpected error occurred");
    expect(normaliseError(undefined).message).toBe("An unexpected error occurred");
  });

  it("maps fetch's failures to network and timeout errors", () => {
    expect(normaliseError(new TypeError("fetch failed")).isNetworkError).toBe(true);
    expect(normaliseError(new DOMException("The operation timed out.", "TimeoutError")).isTimeout).toBe(true);
  });

  it("passes an ApiError through unchanged", () => {
    const err = new ApiError("x", { status: 401 });
    expect(normaliseError(err)).toBe(err);
  });
});

describe("loadErrorText", () => {
  it("shows the error's text in place of a list, else 'An error occurred'", () => {
    expect(loadErrorText(new ApiError("HTTP 500 Error"))).toBe("HTTP 500 Error");
    expect(loadErrorText(new Error(""))).toBe("An error occurred");
    expect(loadErrorText({ message: { nested: true } })).toBe("An error occurred");
    expect(loadErrorText(null)).toBe("An error occurred");
  });
});
