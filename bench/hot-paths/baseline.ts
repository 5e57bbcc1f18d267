import { createHash } from "node:crypto";
import Fastify, { type FastifyInstance } from "fastify";
import type pg from "pg";
import { gtinKey } from "../../src/contract/gtin.js";
import { QUANTITY_MAX_EXCLUSIVE } from "../../src/contract/rules.js";

/** As the app's SESSION_CACHE_MS default: a validated session is trusted this long without a query. */
const SESSION_CACHE_MS = 5_000;

/**
 * The floor the app is measured against: the least a correct server on the same architecture
 * does. Plain Fastify (a JSON schema for the tap's body), the app's own database and pool, named
 * prepared statements straight through node-postgres:
 * - the session checked by one query, then cached for a few seconds, as the app does;
 * - the lookup by GTIN key or exact barcode, the product's JSON text made by the database
 *   (product_json_text(), as the app's);
 * - the tap as one call of the app's plpgsql apply_quantity_change() (the key's claim, the
 *   conditional update, both audit rows, the stored answer), its answer sent as text.
 * No events, hooks, rate limits or logging: what the database and HTTP cost.
 */
export function buildBaseline(pool: pg.Pool): FastifyInstance {
  const app = Fastify({ logger: false });
  const sessions = new Map<string, { user: { id: number; username: string }; until: number }>();

  const actor = async (cookie: string | undefined) => {
    const token = /(?:^|;\s*)blez_session=([^;]+)/.exec(cookie ?? "")?.[1];
    if (!token) return undefined;
    const hash = createHash("sha256").update(token).digest("hex");
    const cached = sessions.get(hash);
    if (cached && cached.until > Date.now()) return cached.user;
    const { rows } = await pool.query<{ id: number; username: string }>({
      name: "floor_session",
      text: `select u.id, u.username from sessions s join users u on u.id = s.user_id
             where s.token_hash = $1 and s.expires_at > now() and u.is_active`,
      values: [hash],
    });
    const user = rows[0];
    if (user) sessions.set(hash, { user, until: Date.now() + SESSION_CACHE_MS });
    return user;
  };

  app.get<{ Params: { barcode: string } }>("/products/barcode/:barcode", async (request, reply) => {
    if (!(await actor(request.headers.cookie))) return reply.code(401).send({ error: "Not signed in" });
    const barcode = request.params.barcode.trim();
    const { rows } = await pool.query<{ json: string }>({
      name: "floor_lookup",
      text: `select product_json_text(p) as json from products p where p.barcode_key = $1 or p.barcode = $2
             order by p.barcode = $2 desc limit 1`,
      values: [gtinKey(barcode), barcode],
    });
    if (!rows[0]) return reply.code(404).send({ error: "Product not found" });
    return reply.type("application/json; charset=utf-8").send(rows[0].json);
  });

  app.put<{ Params: { id: string }; Body: { quantity_change: number; reason?: string } }>(
    "/products/:id/quantity",
    {
      schema: {
        body: {
          type: "object",
          required: ["quantity_change"],
          properties: {
            quantity_change: { type: "integer", minimum: -1_000_000_000, maximum: 1_000_000_000 },
            reason: { type: "string", maxLength: 200 },
          },
        },
      },
    },
    async (request, reply) => {
      const user = await actor(request.headers.cookie);
      if (!user) return reply.code(401).send({ error: "Not signed in" });
      const key = request.headers["idempotency-key"];
      const keyed = typeof key === "string";
      const { quantity_change: delta, reason = "Manual update" } = request.body;
      const { rows } = await pool.query<{ status: number; body: string }>({
        name: "floor_tap",
        text: `select status, body::text as body from apply_quantity_change($1, $2, null, $3, $4, $5, $6, $7, $8, $9, null, null, null)`,
        values: [
          Number(request.params.id),
          delta,
          QUANTITY_MAX_EXCLUSIVE,
          reason,
          user.id,
          user.username,
          request.ip,
          keyed ? key : null,
          keyed ? `${request.params.id}:${delta}:${reason}` : null,
        ],
      });
      const answer = rows[0];
      if (!answer) throw new Error("apply_quantity_change answered nothing");
      if (answer.status !== 200) return reply.code(answer.status).send({ error: answer.body });
      return reply.type("application/json; charset=utf-8").send(answer.body);
    },
  );
  return app;
}
