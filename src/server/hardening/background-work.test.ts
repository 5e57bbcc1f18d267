import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedIn } from "../test/factories.js";
import { createTestApp, type TestApp } from "../test/test-app.js";

/**
 * Work a request starts but does not wait for (a committed import's writing) must never throw
 * past it: a rejection nobody handles ends a Node process. Vitest fails a run with any unhandled
 * rejection, so these tests fail if one escapes.
 */

let t: TestApp;
let cookie: string;

beforeAll(async () => {
  t = await createTestApp();
  cookie = (await signedIn(t.app, "super_admin")).cookie;
});
afterAll(async () => {
  await t?.close();
});

const call = (method: "GET" | "POST" | "PUT", url: string, payload?: unknown) =>
  t.app.inject({ method, url, headers: { cookie }, ...(payload === undefined ? {} : { payload: payload as object }) });

describe("a committed import whose writing cannot start", () => {
  it("is logged and tried again later, and the server keeps serving", async () => {
    const created = await call("POST", "/api/products/import/jobs");
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json() as { id: string };
    const staged = await call("PUT", `/api/products/import/jobs/${id}/parts/0`, {
      products: [{ barcode: `BG${Date.now()}`, product_name: "Background", vendor: "Topps" }],
    });
    expect(staged.statusCode, staged.body).toBe(200);

    // Claiming the import for a runner fails (as a statement does when the database refuses it).
    await t.app.db.execute(sql.raw("alter table imports add constraint no_runner_yet check (runner is null) not valid"));
    try {
      const committed = await call("POST", `/api/products/import/jobs/${id}/commit`);
      expect(committed.statusCode, committed.body).toBe(202);
      await new Promise((r) => setTimeout(r, 300)); // the runner's try, after the answer
      expect((await call("GET", "/api/health")).statusCode).toBe(200);
      expect((await call("GET", `/api/products/import/jobs/${id}`)).json()).toMatchObject({ status: "committing" });
    } finally {
      await t.app.db.execute(sql.raw("alter table imports drop constraint no_runner_yet"));
    }

    // The runner's next look (every 5 s) takes it and writes it.
    const deadline = Date.now() + 20_000;
    let status = "committing";
    while (status === "committing" && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 200));
      status = ((await call("GET", `/api/products/import/jobs/${id}`)).json() as { status: string }).status;
    }
    expect(status).toBe("done");
  });
});
