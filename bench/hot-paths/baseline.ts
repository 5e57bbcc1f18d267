import { createHash } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type pg from "pg";

/**
 * The bare baseline the app is measured against: plain Fastify on the app's own tables and
 * indexes, named prepared statements straight through node-postgres, the same session check (a
 * query per request) and the same audit rows, a tap in one statement. What the database costs.
 */
export function buildBaseline(pool: pg.Pool): FastifyInstance {
  const app = Fastify({ logger: false });

  const actor = async (cookie: string | undefined) => {
    const token = /(?:^|;\s*)blez_session=([^;]+)/.exec(cookie ?? "")?.[1];
    if (!token) return undefined;
    const { rows } = await pool.query<{ id: number; username: string }>({
      name: "baseline_session",
      text: `select u.id, u.username from sessions s join users u on u.id = s.user_id
             where s.token_hash = $1 and s.expires_at > now() and u.is_active`,
      values: [createHash("sha256").update(token).digest("hex")],
    });
    return rows[0];
  };

  app.get<{ Params: { barcode: string } }>("/products/barcode/:barcode", async (request, reply) => {
    if (!(await actor(request.headers.cookie))) return reply.code(401).send({ error: "Not signed in" });
    const { rows } = await pool.query({
      name: "baseline_lookup",
      text: "select product_json(p) as product from products p where p.barcode = $1",
      values: [request.params.barcode],
    });
    if (!rows[0]) return reply.code(404).send({ error: "Product not found" });
    return rows[0].product;
  });

  app.put<{ Params: { id: string }; Body: { quantity_change: number; reason?: string } }>(
    "/products/:id/quantity",
    async (request, reply) => {
      const user = await actor(request.headers.cookie);
      if (!user) return reply.code(401).send({ error: "Not signed in" });
      const key = request.headers["idempotency-key"];
      const values = [
        Number(request.params.id),
        request.body.quantity_change,
        request.body.reason ?? "Manual update",
        user.id,
        user.username,
        request.ip,
      ];
      const { rows } = await pool.query(
        typeof key === "string"
          ? { name: "baseline_tap_keyed", text: TAP_KEYED, values: [...values, key] }
          : { name: "baseline_tap", text: TAP, values },
      );
      if (!rows[0]) return reply.code(409).send({ error: "Insufficient stock" });
      return rows[0].product;
    },
  );
  return app;
}

/** The conditional UPDATE and both audit rows in one statement. */
const TAP_CTES = `
  changed as (
    update products set quantity_on_hand = quantity_on_hand + $2, version = version + 1,
      revision = take_revision(), updated_at = now()
    where id = $1 and is_active and quantity_on_hand + $2 >= 0 and quantity_on_hand + $2 < 1000000000
    returning *),
  product_row as (
    insert into product_audit (product_id, product_name, barcode, action, user_id, user_name,
      changed_fields, old_values, new_values, ip_address, product_version)
    select id, product_name, barcode, case when $2 > 0 then 'QUANTITY_ADD' else 'QUANTITY_SUBTRACT' end, $4, $5,
      '["quantity_on_hand"]', jsonb_build_object('quantity_on_hand', quantity_on_hand - $2),
      jsonb_build_object('quantity_on_hand', quantity_on_hand), $6, version
    from changed),
  quantity_row as (
    insert into quantity_audit (product_id, product_name, barcode, quantity_change, quantity_before,
      quantity_after, transaction_type, notes, user_id, user_name)
    select id, product_name, barcode, $2, quantity_on_hand - $2, quantity_on_hand, 'adjustment', $3, $4, $5
    from changed)`;
const TAP = `with ${TAP_CTES} select product_json(c) as product from changed c`;
/** With the key and its stored answer too (a fresh key each time, as the load sends). */
const TAP_KEYED = `with ${TAP_CTES},
  stored as (
    insert into idempotency_keys (user_id, key, status_code, body)
    select $4, $7, 200, to_jsonb(product_json(c)) from changed c
    on conflict do nothing)
  select product_json(c) as product from changed c`;
