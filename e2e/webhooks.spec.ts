import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { adminApi, createProduct, createUser, signIn } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks } from "./support/page";

/** A webhook endpoint on this machine (allowed by WEBHOOK_ALLOWED_HOSTS in playwright.config.ts): records what it gets, answers 204. */
interface Got {
  headers: Record<string, string>;
  body: string;
}
let receiver: Server;
let receiverUrl: string;
const got: Got[] = [];
let api: APIRequestContext;

test.beforeAll(async () => {
  api = await adminApi();
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      got.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString("utf8") });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
});
test.afterAll(async () => {
  await api.dispose();
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

function signatureOk(secret: string, g: Got): boolean {
  const key = Buffer.from(secret.slice("whsec_".length), "base64");
  const mac = createHmac("sha256", key).update(`${g.headers["webhook-id"]}.${g.headers["webhook-timestamp"]}.${g.body}`).digest("base64");
  return g.headers["webhook-signature"] === `v1,${mac}`;
}

test("a manager adds a webhook, copies its secret once, sends a test and sees it in the delivery log", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const manager = await createUser(api, "manager");
  await signIn(page, manager);
  await letLiveToastsPassClicks(page);
  await page.getByRole("navigation", { name: "Views" }).getByRole("link", { name: "Integrations" }).click();
  await expect(page.getByRole("heading", { name: "Integrations", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 2 })).toBeVisible();

  await page.getByRole("button", { name: "Add endpoint" }).click();
  const add = page.getByRole("dialog", { name: "Add webhook endpoint" });
  // The server refuses a cloud's metadata service (and this computer, unless WEBHOOK_ALLOWED_HOSTS allows it, as here).
  await add.getByLabel("Endpoint URL").fill("http://169.254.169.254/latest");
  await add.getByRole("button", { name: "Add endpoint" }).click();
  await expect(add.getByRole("alert")).toContainText("Webhook URL may not point at a cloud metadata service (169.254.169.254)");
  await add.getByLabel("Endpoint URL").fill(receiverUrl);
  await add.getByLabel("Description").fill("Stock sync script");
  await add.getByRole("button", { name: "Add endpoint" }).click();

  const added = page.getByRole("dialog", { name: "Webhook added" });
  await expect(added).toContainText("it is not shown again");
  const secret = await added.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
  await added.getByRole("button", { name: "Copy secret" }).click();
  await expect(added.getByRole("button", { name: "Copy secret" })).toContainText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
  await expectNoAxeViolations(page);
  await added.getByRole("button", { name: "Done" }).click();
  await expect(added).toBeHidden();
  await expect(page.getByText(secret)).toHaveCount(0);

  const card = page.getByRole("article", { name: receiverUrl });
  await expect(card).toContainText("Stock sync script");
  await expect(card).toContainText("Enabled");
  await card.getByRole("button", { name: "Send test" }).click();
  const log = card.getByRole("table", { name: `Deliveries to ${receiverUrl}` });
  const row = log.getByRole("row").filter({ hasText: "webhook.test" });
  await expect(row).toContainText("Delivered");
  await expect(row).toContainText("HTTP 204");
  const test = got.find((g) => JSON.parse(g.body).type === "webhook.test");
  expect(test && signatureOk(secret, test)).toBe(true);

  // A change made elsewhere reaches the endpoint too, and shows in the log.
  const product = await createProduct(api, { quantity_on_hand: 3 });
  await api.put(`/api/products/${product.id}/quantity`, { data: { quantity_change: -1, reason: "Streamer adjustment" } });
  await expect(log.getByRole("row").filter({ hasText: "inventory.quantity_changed" }).first()).toContainText("Delivered");
  await expectNoAxeViolations(page);

  await card.getByRole("button", { name: "Disable" }).click();
  await expect(card).toContainText("Disabled");
  await card.getByRole("button", { name: "Delete" }).click();
  await page.getByRole("dialog", { name: "Delete webhook?" }).getByRole("button", { name: "Delete webhook" }).click();
  await expect(page.getByRole("article", { name: receiverUrl })).toHaveCount(0);
});
