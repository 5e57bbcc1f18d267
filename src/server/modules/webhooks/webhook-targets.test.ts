import { inArray } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CreatedWebhook, WEBHOOK_FAILURES, WEBHOOK_MAX, type Webhook, type WebhookDelivery } from "../../../contract/webhooks.js";
import { loadConfig } from "../../config.js";
import { webhooks } from "../../db/schema.js";
import { createUser, signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { freePort } from "../../test/server-processes.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { eventually, Receiver } from "../../test/webhook-receiver.js";
import { refusedKind, WebhookTargets } from "./webhook-targets.js";
import { WebhookWorker } from "./webhook-worker.js";
import { insertWebhook } from "./webhooks.repo.js";

/**
 * Where webhooks may point (webhook-targets.ts), what the delivery log says about a failed attempt
 * (webhook-sender.ts), and the cap on webhooks: through the API, with real receivers.
 */

type Api = ReturnType<typeof caller>;

/** Every form of a refused target a URL can name, with the words the 400 uses for it. */
const REFUSED: Array<[string, string]> = [
  ["http://127.0.0.1/hook", "this computer"],
  ["http://127.1.2.3:8080/", "this computer"],
  ["http://2130706433/", "this computer"],
  ["http://0x7f.0.0.1/", "this computer"],
  ["http://[::1]:4000/", "this computer"],
  ["http://[::ffff:127.0.0.1]/", "this computer"],
  ["http://[::ffff:7f00:1]/", "this computer"],
  ["http://[0:0:0:0:0:ffff:7f00:1]/", "this computer"],
  ["http://[::127.0.0.1]/", "this computer"],
  ["http://[64:ff9b::7f00:1]/", "this computer"],
  ["http://[2002:7f00:1::1]/", "this computer"],
  ["http://10.0.0.5/hook", "private network"],
  ["http://172.16.0.1/", "private network"],
  ["http://172.31.255.254/", "private network"],
  ["http://192.168.1.20:8080/sync", "private network"],
  ["http://[::ffff:192.168.1.20]/", "private network"],
  ["http://[::ffff:c0a8:114]/", "private network"],
  ["http://100.64.0.1/", "carrier-grade NAT"],
  ["http://100.127.255.254/", "carrier-grade NAT"],
  ["http://[fc00::1]/", "unique-local"],
  ["http://[fd12:3456::1]/", "unique-local"],
  ["http://169.254.1.1/", "link-local"],
  ["http://[fe80::1]/", "link-local"],
  ["http://[febf::1]:8080/", "link-local"],
  ["http://[::ffff:169.254.1.1]/", "link-local"],
  ["http://0.0.0.0:2375/", "unspecified"],
  ["http://0/", "unspecified"],
  ["http://[::]/", "unspecified"],
  ["http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/", "Teredo"],
  ["http://169.254.169.254/latest/meta-data", "cloud metadata"],
  ["http://[::ffff:169.254.169.254]/latest", "cloud metadata"],
  ["http://[::ffff:a9fe:a9fe]/latest", "cloud metadata"],
  ["http://169.254.170.2/v2/credentials", "cloud metadata"],
  ["http://100.100.100.200/latest/meta-data", "cloud metadata"],
  ["http://[::ffff:100.100.100.200]/", "cloud metadata"],
  ["http://[fd00:ec2::254]/latest/meta-data", "cloud metadata"],
  ["http://168.63.129.16/machine", "cloud metadata"],
  ["http://metadata.google.internal/computeMetadata/v1/", "cloud metadata"],
  ["http://METADATA.GOOGLE.INTERNAL./computeMetadata/v1/", "cloud metadata"],
  ["http://metadata/computeMetadata/v1/", "cloud metadata"],
  ["http://instance-data/latest", "cloud metadata"],
];

/** On the internet, or a name (resolved, and checked, when a delivery is sent). */
const ACCEPTED = [
  "https://shop.example.com/webhooks",
  "http://8.8.8.8/hook",
  "http://[2606:4700:4700::1111]/hook",
  "http://172.32.0.1/",
  "http://100.128.0.1/",
  "http://[2002:808:808::1]/",
  "http://[64:ff9b::808:808]/",
  "http://localhost:4000/hook",
];

async function create(api: Api, url: string, events: string[] = ["webhook.test"]): Promise<CreatedWebhook> {
  const res = await api.post("/api/webhooks", { url, events });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(201);
  return res.json();
}

/**
 * Sends a `webhook.test` to a new webhook at `url` and answers its delivery once the first attempt
 * is recorded (succeeded, or failed and waiting for the next), with the delivery log's text.
 */
async function firstAttempt(api: Api, url: string): Promise<WebhookDelivery & { log: string }> {
  const hook = await create(api, url);
  const test = await api.post(`/api/webhooks/${hook.webhook.id}/test`);
  expect(test.statusCode).toBe(202);
  const id = test.json<WebhookDelivery>().id;
  return eventually(
    async () => {
      const log = await api.get(`/api/webhooks/${hook.webhook.id}/deliveries`);
      const d = log.json<WebhookDelivery[]>().find((x) => x.id === id);
      return d && (d.status === "succeeded" || d.last_error !== null) ? { ...d, log: log.body } : undefined;
    },
    10_000,
    `the first attempt to ${url}`,
  );
}

describe("WEBHOOK_ALLOWED_HOSTS", () => {
  const allowed = (value: string) => loadConfig({ WEBHOOK_ALLOWED_HOSTS: value }).WEBHOOK_ALLOWED_HOSTS;

  it("takes comma-separated host names, addresses and CIDR ranges; unset allows nothing", () => {
    expect(loadConfig({}).WEBHOOK_ALLOWED_HOSTS).toEqual([]);
    expect(allowed("")).toEqual([]);
    expect(allowed(" 192.168.1.0/24, sync.local ,10.0.0.5,fd12::/16,")).toEqual(["192.168.1.0/24", "sync.local", "10.0.0.5", "fd12::/16"]);
  });

  it("refuses what is neither, naming each bad entry", () => {
    for (const bad of [
      "192.168.1.0/33",
      "10.0.0.0/8/8",
      "sync.local:4000",
      "http://sync.local",
      "*.shop.lan",
      "10.1",
      "fd12::/129",
      "a b",
    ]) {
      expect(() => allowed(`sync.local,${bad}`), bad).toThrow(
        new RegExp(`WEBHOOK_ALLOWED_HOSTS: ${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}: expected host names`),
      );
    }
  });

  it("an allowed range allows its addresses in every form; an allowed name any address but a metadata service's", () => {
    const targets = new WebhookTargets(["192.168.1.0/24", "sync.local"]);
    expect(targets.refusal("192.168.1.7", "192.168.1.7")).toBeNull();
    expect(targets.refusal("::ffff:c0a8:107", "::ffff:c0a8:107")).toBeNull();
    expect(targets.refusal("192.168.2.7", "192.168.2.7")).toBe("private");
    expect(targets.refusal("sync.local", "10.0.0.9")).toBeNull();
    expect(targets.refusal("sync.local", "169.254.169.254")).toBe("metadata");
    expect(targets.refusal("other.local", "10.0.0.9")).toBe("private");
    expect(new WebhookTargets([]).refusal("localhost", "127.0.0.1")).toBe("loopback");
    expect(new WebhookTargets(["localhost"]).refusal("localhost", "127.0.0.1")).toBeNull();
    expect(refusedKind("8.8.8.8")).toBeNull();
    expect(refusedKind("2001:db8::1")).toBeNull();
  });
});

describe("webhook targets with nothing allowed", () => {
  let t: TestApp;
  let api: Api;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
    t = await createTestApp({ WEBHOOK_TIMEOUT_MS: 2_000, WEBHOOK_RETRY_DELAYS_MS: [60_000], WEBHOOK_POLL_MS: 100 });
    api = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("refuse every address form and metadata name with 400 on create, saying what it is", async () => {
    const before = (await api.get("/api/webhooks")).json<Webhook[]>().length;
    for (const [url, what] of REFUSED) {
      const res = await api.post("/api/webhooks", { url, events: ["*"] });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toContain(what);
      if (what !== "cloud metadata") expect(res.json().error, url).toContain("WEBHOOK_ALLOWED_HOSTS");
    }
    expect((await api.get("/api/webhooks")).json<Webhook[]>()).toHaveLength(before);
  });

  it("refuse them with 400 on update too, the webhook left as it was", async () => {
    const hook = await create(api, "https://shop.example.com/sync");
    for (const [url, what] of REFUSED) {
      const res = await api.put(`/api/webhooks/${hook.webhook.id}`, { url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().error, url).toContain(what);
    }
    const listed = (await api.get("/api/webhooks")).json<Webhook[]>().find((w) => w.id === hook.webhook.id);
    expect(listed?.url).toBe("https://shop.example.com/sync");
    expect((await api.put(`/api/webhooks/${hook.webhook.id}`, { url: "http://8.8.4.4/sync" })).statusCode).toBe(200);
  });

  it("accept addresses on the internet, and names (checked when sent)", async () => {
    for (const url of ACCEPTED) {
      const hook = await create(api, url);
      expect((await api.delete(`/api/webhooks/${hook.webhook.id}`)).statusCode).toBe(204);
    }
  });

  it("webhooks saved before pointing where they may not are named in the server's log once a start", async () => {
    const manager = (await createUser(t.app.db, { role: "manager" })).id;
    const row = { events: ["*"], description: "", secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", createdBy: manager };
    const local = await insertWebhook(t.app.db, { ...row, url: "http://127.0.0.1:4000/sync" }, WEBHOOK_MAX);
    await insertWebhook(t.app.db, { ...row, url: "https://shop.example.com/sync" }, WEBHOOK_MAX);
    const warnings: string[] = [];
    const log = { warn: (_: unknown, message: string) => warnings.push(message) } as unknown as FastifyBaseLogger;
    const options = { timeoutMs: 1_000, retryDelaysMs: [60_000], giveUpMs: 60_000, pollMs: 20, concurrency: 1 };
    const worker = new WebhookWorker(t.app.db, log, { ...options, allowedHosts: [] });
    worker.start();
    try {
      await eventually(async () => (warnings.length > 0 ? warnings : undefined), 10_000, "a warning");
    } finally {
      await worker.close();
    }
    expect(warnings).toEqual([
      `webhook ${local?.id}'s deliveries fail: Webhook URL may not point at this computer (127.0.0.1). A receiver on the shop's network can be allowed with the server setting WEBHOOK_ALLOWED_HOSTS`,
    ]);
    await t.app.db.delete(webhooks).where(inArray(webhooks.url, ["http://127.0.0.1:4000/sync", "https://shop.example.com/sync"]));
  });

  it("a name resolving to this computer (localhost) fails each attempt with `address not allowed`, nothing sent", async () => {
    const port = new URL(receiver.url).port;
    const failed = await firstAttempt(api, `http://localhost:${port}/hook`);
    expect(failed).toMatchObject({ last_status: null, last_error: WEBHOOK_FAILURES.notAllowed, status: "pending" });
    expect(receiver.received).toEqual([]);
  });
});

describe("webhook targets WEBHOOK_ALLOWED_HOSTS allows, and the delivery log's reasons", () => {
  let t: TestApp;
  let api: Api;
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await Receiver.start();
    t = await createTestApp({
      WEBHOOK_TIMEOUT_MS: 1_000,
      WEBHOOK_RETRY_DELAYS_MS: [60_000],
      WEBHOOK_POLL_MS: 100,
      WEBHOOK_ALLOWED_HOSTS: ["127.0.0.0/30", "localhost"],
    });
    api = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it("a CIDR range allows its addresses (IPv4-mapped too) and no others", async () => {
    const port = new URL(receiver.url).port;
    const delivered = await firstAttempt(api, `http://127.0.0.1:${port}/hook`);
    expect(delivered).toMatchObject({ status: "succeeded", last_status: 200, last_error: null });
    await create(api, `http://[::ffff:127.0.0.2]:${port}/hook`);
    for (const url of ["http://127.0.0.9/hook", "http://10.0.0.5/hook", "http://169.254.169.254/latest"]) {
      expect((await api.post("/api/webhooks", { url, events: ["*"] })).statusCode, url).toBe(400);
    }
  });

  it("a host name allows that name, whatever it resolves to", async () => {
    const port = new URL(receiver.url).port;
    const before = receiver.received.length;
    const delivered = await firstAttempt(api, `http://localhost:${port}/hook`);
    expect(delivered).toMatchObject({ status: "succeeded", last_status: 200, last_error: null });
    expect(receiver.received.length).toBe(before + 1);
  });

  it("an answer's body is never kept: `HTTP 500`, whatever the receiver said", async () => {
    const body = `{"error": "db at 10.0.0.7 refused", "token": "sk_live_4eC39HqLyjWDarjtT1zdp7dc"}`;
    receiver.answer = () => ({ status: 500, body });
    try {
      const failed = await firstAttempt(api, receiver.url);
      expect(failed).toMatchObject({ last_status: 500, last_error: "HTTP 500" });
      expect(receiver.received.at(-1)?.json.type).toBe("webhook.test");
      for (const secret of ["sk_live", "10.0.0.7", "refused"]) expect(failed.log).not.toContain(secret);
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it("a receiver that never answers: `timeout`; one that drops the connection: `connection reset`", async () => {
    receiver.answer = () => "hang";
    try {
      expect(await firstAttempt(api, receiver.url)).toMatchObject({ last_status: null, last_error: WEBHOOK_FAILURES.timeout });
      receiver.answer = () => "reset";
      expect(await firstAttempt(api, receiver.url)).toMatchObject({ last_status: null, last_error: WEBHOOK_FAILURES.reset });
    } finally {
      receiver.answer = () => ({ status: 200 });
    }
  });

  it("nothing listening: `connection refused`; TLS to a plain HTTP server: `TLS error`; an unknown name: its lookup failed", async () => {
    const closedPort = await freePort();
    expect(await firstAttempt(api, `http://127.0.0.1:${closedPort}/hook`)).toMatchObject({
      last_status: null,
      last_error: WEBHOOK_FAILURES.refused,
    });
    const port = new URL(receiver.url).port;
    expect(await firstAttempt(api, `https://127.0.0.1:${port}/hook`)).toMatchObject({
      last_status: null,
      last_error: WEBHOOK_FAILURES.tls,
    });
    // .invalid never resolves (RFC 6761); without a name server the lookup fails instead.
    const unknown = await firstAttempt(api, "http://no-such-receiver.invalid/hook");
    expect([WEBHOOK_FAILURES.nameNotFound, WEBHOOK_FAILURES.nameLookup]).toContain(unknown.last_error);
  });
});

describe(`at most ${WEBHOOK_MAX} webhooks`, () => {
  let t: TestApp;
  let api: Api;
  beforeAll(async () => {
    t = await createTestApp();
    api = caller(t.app, (await signedIn(t.app, "manager")).cookie);
  });
  afterAll(async () => {
    await t?.close();
  });

  it(`60 concurrent adds leave exactly ${WEBHOOK_MAX}; the next is refused (409) until one is deleted`, async () => {
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => api.post("/api/webhooks", { url: `https://shop.example.com/hook/${i}`, events: ["*"] })),
    );
    expect(answers.filter((r) => r.statusCode === 201)).toHaveLength(WEBHOOK_MAX);
    const refused = answers.filter((r) => r.statusCode !== 201);
    expect(refused.map((r) => r.statusCode)).toEqual(Array(60 - WEBHOOK_MAX).fill(409));
    expect(refused[0]?.json().error).toBe(`A shop may have at most ${WEBHOOK_MAX} webhooks: delete one before adding another`);
    const list = (await api.get("/api/webhooks")).json<Webhook[]>();
    expect(list).toHaveLength(WEBHOOK_MAX);

    expect((await api.post("/api/webhooks", { url: "https://shop.example.com/one-more", events: ["*"] })).statusCode).toBe(409);
    expect((await api.delete(`/api/webhooks/${list[0]?.id}`)).statusCode).toBe(204);
    await create(api, "https://shop.example.com/one-more", ["*"]);
    expect((await api.post("/api/webhooks", { url: "https://shop.example.com/and-another", events: ["*"] })).statusCode).toBe(409);
  });
});
