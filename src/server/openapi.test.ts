import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import openapiTS, { type OpenAPI3 } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_IDS } from "./openapi.js";
import { createTestApp, type TestApp } from "./test/test-app.js";

/** The OpenAPI document as an integrator gets it: what a client generator reads. */

type Operation = { operationId?: string; security?: unknown[] };
type Document = { servers?: Array<{ url: string }>; paths: Record<string, Record<string, Operation>> };

let t: TestApp;
let spec: Document;
let work: string;

beforeAll(async () => {
  t = await createTestApp();
  spec = (await t.app.inject({ method: "GET", url: "/api/docs/json" })).json();
  work = mkdtempSync(join(tmpdir(), "blez-openapi-client-"));
});
afterAll(async () => {
  await t?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

function operations(): Array<[string, Operation]> {
  return Object.entries(spec.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]): [string, Operation] => [`${method.toUpperCase()} ${path}`, operation]),
  );
}

/** The TypeScript 7 compiler (its command line: the package ships no JavaScript compiler API). */
const tsc = join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "bin", "tsc");

/** Type-checks the generated types and one client file in `work`: tsc's exit code and output. */
async function compile(client: string): Promise<{ ok: boolean; output: string }> {
  writeFileSync(join(work, "client.ts"), client);
  writeFileSync(
    join(work, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        strict: true,
        noEmit: true,
        target: "es2022",
        module: "esnext",
        moduleResolution: "bundler",
        lib: ["es2022", "dom"],
        types: [],
        skipLibCheck: true,
      },
      files: ["api.ts", "client.ts"],
    }),
  );
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [tsc, "-p", work], { timeout: 60_000 });
    return { ok: true, output: stdout + stderr };
  } catch (err) {
    const failed = err as { stdout?: string; stderr?: string; message: string };
    return { ok: false, output: `${failed.stdout ?? ""}${failed.stderr ?? ""}` || failed.message };
  }
}

/** A small client written against the generated types, the way an integrator would. */
const CLIENT = `
import type { operations } from "./api";

type Json<R> = R extends { content: { "application/json": infer B } } ? B : never;
type Ok<O> = O extends { responses: { 200: infer R } } ? Json<R> : never;
type Created<O> = O extends { responses: { 201: infer R } } ? Json<R> : never;
type Body<O> = O extends { requestBody: { content: { "application/json": infer B } } } ? B : never;

const origin = "https://shop.example";
const headers = { authorization: "Bearer blez_secret", "content-type": "application/json" };

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(origin + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  if (!res.ok) throw new Error((await res.json()).error);
  return (await res.json()) as T;
}

export function getProductByBarcode(barcode: operations["getProductByBarcode"]["parameters"]["path"]["barcode"]) {
  return call<Ok<operations["getProductByBarcode"]>>("GET", "/api/products/barcode/" + encodeURIComponent(barcode));
}

export function createOrder(order: Body<operations["createOrder"]>) {
  return call<Created<operations["createOrder"]>>("POST", "/api/orders", order);
}

export async function sellOne(barcode: string): Promise<number> {
  const product = await getProductByBarcode(barcode);
  const left: number = product.quantity_on_hand - 1;
  const { order } = await createOrder({ channel: "web", external_id: "W-1", lines: [{ barcode: product.barcode, quantity: 1 }] });
  const status: "completed" | "cancelled" = order.status;
  return status === "completed" ? left : product.quantity_on_hand;
}
`;

/** A call the types must refuse: an order's line quantity as a string. */
const WRONG_CALL = `createOrder({ channel: "web", external_id: "W-2", lines: [{ barcode: "B-1", quantity: "2" }] });`;

describe("the OpenAPI document, for client generators", () => {
  it("names every operation once (resource and verb), its server, and the public operations' empty security", () => {
    const all = operations();
    expect(all.length).toBeGreaterThan(50);
    const ids = all.map(([, operation]) => operation.operationId);
    // Every operation has a name chosen in OPERATION_IDS, not one derived from its path.
    for (const [route, operation] of all) expect(operation.operationId, route).toBe(OPERATION_IDS[route]);
    expect(new Set(ids).size).toBe(ids.length);
    expect(spec.paths["/api/products/barcode/{barcode}"]?.get?.operationId).toBe("getProductByBarcode");
    expect(spec.paths["/api/products/{id}/quantity"]?.put?.operationId).toBe("updateProductQuantity");
    expect(spec.paths["/api/orders/{id}/cancel"]?.post?.operationId).toBe("cancelOrder");

    expect(spec.servers).toEqual([expect.objectContaining({ url: "/" })]);
    const open = all
      .filter(([, operation]) => Array.isArray(operation.security) && operation.security.length === 0)
      .map(([route]) => route);
    expect(open.sort()).toEqual([
      "GET /api/buylist",
      "GET /api/health",
      "POST /api/auth/login",
      "POST /api/auth/logout",
      "POST /api/buylist/submissions",
    ]);
    for (const [route, operation] of all) expect(operation.security, route).toBeDefined();
  });

  it("generates types with openapi-typescript that a small client compiles against, and a wrong call does not", {
    timeout: 120_000,
  }, async () => {
    writeFileSync(join(work, "api.ts"), await openapiTS(spec as unknown as OpenAPI3));

    const good = await compile(`${CLIENT}\nexport function wrong() {\n  // @ts-expect-error a quantity is a number\n  ${WRONG_CALL}\n}\n`);
    expect(good.ok, `the client does not compile against the generated types:\n${good.output}`).toBe(true);

    const bad = await compile(`${CLIENT}\nexport function wrong() {\n  ${WRONG_CALL}\n}\n`);
    expect(bad.ok, "a call with a string quantity compiled: the generated types do not describe the order's lines").toBe(false);
    expect(bad.output).toMatch(/client\.ts\(\d+,\d+\): error TS\d+: .*string.*number/s);
  });
});
