#!/usr/bin/env node
// A webhook receiver for Blez Inventory: verifies each delivery's Standard Webhooks signature
// and prints what a marketplace sync would do with it. Node 20+, no dependencies.
//
//   WEBHOOK_SECRET=whsec_... PORT=4000 node receiver.mjs
//
// Replace the `sync` functions with calls to your channel's API (see README.md).
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer } from "node:http";

const SECRET = process.env.WEBHOOK_SECRET ?? "";
const PORT = Number(process.env.PORT ?? 4000);
const HOST = process.env.HOST ?? "127.0.0.1";
const TOLERANCE_SECONDS = 5 * 60;

if (!SECRET.startsWith("whsec_")) {
  console.error("Set WEBHOOK_SECRET to the secret Blez Inventory showed when you added the webhook (whsec_...).");
  process.exit(1);
}
const key = Buffer.from(SECRET.slice("whsec_".length), "base64");

/** True when the headers carry a valid v1 signature of this exact body, made within the last 5 minutes. */
function verify(headers, body) {
  const id = headers["webhook-id"];
  const timestamp = Number(headers["webhook-timestamp"]);
  const signatures = headers["webhook-signature"];
  if (!id || !signatures || !Number.isInteger(timestamp)) return false;
  if (Math.abs(Date.now() / 1000 - timestamp) > TOLERANCE_SECONDS) return false;
  const expected = createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest();
  return signatures.split(" ").some((candidate) => {
    const [version, value] = candidate.split(",", 2);
    if (version !== "v1" || !value) return false;
    const given = Buffer.from(value, "base64");
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

// Deliveries are sent at least once: a retry carries the same webhook-id. Remember what was
// handled (a real sync keeps this in its database) and do nothing twice.
const handled = new Set();

const sync = {
  "inventory.quantity_changed": ({ product, quantity_change, reason }) =>
    `set stock of ${product.barcode} "${product.product_name}" to ${product.quantity_on_hand} on every other channel ` +
    `(${quantity_change > 0 ? "+" : ""}${quantity_change}, ${reason ?? "no reason"})` +
    (product.quantity_on_hand === 0 ? "; sold out: end the listings" : ""),
  "product.created": ({ product }) =>
    `list ${product.barcode} "${product.product_name}" (${product.vendor}) with ${product.quantity_on_hand} in stock`,
  "product.updated": ({ product, changed_fields }) => `update the listing of ${product.barcode}: ${changed_fields.join(", ")} changed`,
  "product.status_changed": ({ product }) =>
    product.is_active
      ? `relist ${product.barcode} with ${product.quantity_on_hand} in stock`
      : `end every listing of ${product.barcode} (disabled)`,
  "products.imported": ({ import_id, created, updated }) =>
    `an import (${import_id}) created ${created} and updated ${updated} products: fetch GET /api/products?since=<last revision seen> and push their stock`,
  "order.created": ({ order }) => `order ${order.channel} ${order.external_id}: stock already taken; nothing to push but the new stock`,
  "order.cancelled": ({ order }) => `order ${order.channel} ${order.external_id} cancelled: stock put back`,
  "webhook.test": () => "test delivery: the signature checks out, nothing to sync",
};

const server = createServer((request, response) => {
  if (request.method !== "POST") {
    response.writeHead(405).end();
    return;
  }
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const body = Buffer.concat(chunks).toString("utf8");
    if (!verify(request.headers, body)) {
      console.log(`REJECTED ${request.headers["webhook-id"] ?? "(no id)"}: bad or missing signature`);
      response.writeHead(401).end("bad signature");
      return;
    }
    const id = request.headers["webhook-id"];
    // Answer at once (within 10 s, or the delivery is retried); do slow work after.
    response.writeHead(204).end();
    if (handled.has(id)) {
      console.log(`DUPLICATE ${id}: already handled`);
      return;
    }
    handled.add(id);
    const event = JSON.parse(body);
    const action = sync[event.type]?.(event.data) ?? "unknown event type: ignored";
    console.log(`VERIFIED ${id} ${event.type} -> ${action}`);
  });
});

server.listen(PORT, HOST, () => console.log(`Listening for Blez Inventory webhooks on http://${HOST}:${PORT}/`));
