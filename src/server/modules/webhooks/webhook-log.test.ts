import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEBHOOK_MAX } from "../../../contract/webhooks.js";
import { createUser } from "../../test/factories.js";
import { createTestApp, type TestApp } from "../../test/test-app.js";
import { DELIVERY_LOG_DAYS, insertWebhook } from "./webhooks.repo.js";

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t.close();
});

/**
 * Deliveries written straight into the outbox, made `daysAgo` days ago; answers their ids. A
 * pending one is due in an hour: the app's worker, running meanwhile, would otherwise try it, fail
 * (nothing listens there) and finish it, and the log's second trim would then find it.
 */
async function deliveries(webhookId: number, status: string, daysAgo: number, count = 1): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ id: string }>(
    `insert into webhook_deliveries (message_id, webhook_id, type, data, status, next_attempt_at, created_at, finished_at)
     select 'msg_log_' || g, $1, 'webhook.test', '{}', $2,
       case when $2 = 'pending' then now() + interval '1 hour' end, now() - make_interval(days => $3), case when $2 <> 'pending' then now() end
     from generate_series(1, $4) g
     returning id`,
    [webhookId, status, daysAgo, count],
  );
  return rows.map((r) => Number(r.id));
}

async function remaining(ids: number[]): Promise<number[]> {
  const { rows } = await t.database.pool.query<{ id: string }>(
    "select id from webhook_deliveries where id = any($1::bigint[]) order by id",
    [ids],
  );
  return rows.map((r) => Number(r.id));
}

describe("the delivery log keeps finished deliveries for 30 days", () => {
  it("deletes finished deliveries and those of deleted webhooks once older, a thousand rows a statement", async () => {
    const hook = await insertWebhook(
      t.database.db,
      {
        url: "http://127.0.0.1:9/hook",
        events: ["*"],
        description: "log",
        secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
        createdBy: (await createUser(t.app.db, { role: "manager" })).id,
      },
      WEBHOOK_MAX,
    );
    if (!hook) throw new Error("no webhook inserted");
    const old = DELIVERY_LOG_DAYS + 1;
    const oldSucceeded = await deliveries(hook.id, "succeeded", old, 2_500);
    const oldFailed = await deliveries(hook.id, "failed", old);
    const oldOfDeletedWebhook = await deliveries(hook.id + 1_000, "pending", old);
    const oldWaiting = await deliveries(hook.id, "pending", old);
    const recent = [...(await deliveries(hook.id, "succeeded", DELIVERY_LOG_DAYS - 1)), ...(await deliveries(hook.id, "failed", 0))];

    expect(await t.app.webhookWorker.trimLog()).toBe(2_502);
    expect(await remaining([...oldSucceeded, ...oldFailed, ...oldOfDeletedWebhook])).toEqual([]);
    expect(await remaining([...oldWaiting, ...recent])).toEqual([...oldWaiting, ...recent]);
    expect(await t.app.webhookWorker.trimLog()).toBe(0);
  });
});
