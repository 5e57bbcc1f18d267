import { type ChildProcess, spawn } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { CreatedWebhook } from "../../../contract/webhooks.js";
import { projectRoot } from "../../paths.js";
import { signedIn } from "../../test/factories.js";
import { caller } from "../../test/product-calls.js";
import { freePort } from "../../test/server-processes.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";

/** examples/webhook-receiver/receiver.mjs, run as its README says, against the app. */

let t: TestApp;
let child: ChildProcess | undefined;
const output: string[] = [];

async function lineMatching(pattern: RegExp, timeoutMs = 10_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = output
      .join("")
      .split("\n")
      .find((l) => pattern.test(l));
    if (line) return line;
    if (Date.now() > deadline) throw new Error(`no line matching ${pattern} in:\n${output.join("")}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

beforeAll(async () => {
  // The receiver runs on this computer, as a shop's sync script may when the setting allows it.
  t = await createTestApp({ WEBHOOK_POLL_MS: 200, WEBHOOK_ALLOWED_HOSTS: ["127.0.0.1"] });
});
afterAll(async () => {
  child?.kill();
  await t?.close();
});

describe("the example webhook receiver", () => {
  it("verifies real deliveries, refuses a forged one, and prints what a sync would do", async () => {
    const api = caller(t.app, (await signedIn(t.app, "manager")).cookie);
    const port = await freePort();
    const created = await api.post("/api/webhooks", { url: `http://127.0.0.1:${port}/`, events: ["*"], description: "example" });
    const { secret, webhook } = created.json() as CreatedWebhook;
    child = spawn(process.execPath, [join(projectRoot, "examples", "webhook-receiver", "receiver.mjs")], {
      env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.stdout?.on("data", (d) => output.push(String(d)));
    child.stderr?.on("data", (d) => output.push(String(d)));
    await lineMatching(/^Listening/);

    await api.post(`/api/webhooks/${webhook.id}/test`);
    await lineMatching(/^VERIFIED msg_\w+ webhook\.test -> test delivery/);

    const product = await api.create({ barcode: "EXAMPLE-0001", product_name: "Example Card", quantity_on_hand: 1 });
    await api.put(`/api/products/${product.id}/quantity`, { quantity_change: -1, reason: "Streamer adjustment" });
    const sold = await lineMatching(/inventory\.quantity_changed/);
    expect(sold).toContain('set stock of EXAMPLE-0001 "Example Card" to 0 on every other channel (-1, Streamer adjustment); sold out');
    await lineMatching(/product\.created -> list EXAMPLE-0001/);

    const forged = await fetch(`http://127.0.0.1:${port}/`, {
      method: "POST",
      headers: { "webhook-id": "msg_forged", "webhook-timestamp": String(Math.floor(Date.now() / 1000)), "webhook-signature": "v1,AAAA" },
      body: JSON.stringify({ type: "inventory.quantity_changed", timestamp: new Date().toISOString(), data: {} }),
    });
    expect(forged.status).toBe(401);
    await lineMatching(/^REJECTED msg_forged/);
  });
});
