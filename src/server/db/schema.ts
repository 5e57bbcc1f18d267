import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  json,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { FEED_FORMATS, FINISHES } from "../../contract/market.js";
import type { Photo } from "../../contract/photos.js";
import { CONDITIONS, GRADERS, MONEY_MAX_CENTS } from "../../contract/rules.js";

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const users = pgTable(
  "users",
  {
    id: serial("id").primaryKey(),
    username: text("username").notNull(),
    passwordHash: text("password_hash").notNull(),
    role: text("role", { enum: ["super_admin", "manager", "inventory", "streamer"] }).notNull(),
    isActive: boolean("is_active").notNull().default(true),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("users_username_lower_idx").on(sql`lower(${t.username})`),
    check("users_role_check", sql`${t.role} in ('super_admin', 'manager', 'inventory', 'streamer')`),
  ],
);

/**
 * Server-side sessions: only the SHA-256 of the cookie token is stored. `id` names a session
 * without its token (socket tokens, socket rooms, revocation messages between processes).
 */
export const sessions = pgTable(
  "sessions",
  {
    tokenHash: text("token_hash").primaryKey(),
    id: bigserial("id", { mode: "number" }).notNull().unique(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastSeenAt: ts("last_seen_at").notNull().defaultNow(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_expires_idx").on(t.expiresAt)],
);

/**
 * Single-use tokens a signed-in client trades for an authenticated socket, bound to the session
 * that fetched them: ending the session deletes its unused tokens.
 */
export const socketTokens = pgTable(
  "socket_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    sessionId: bigint("session_id", { mode: "number" })
      .notNull()
      .references(() => sessions.id, { onDelete: "cascade" }),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("socket_tokens_session_idx").on(t.sessionId), index("socket_tokens_expires_idx").on(t.expiresAt)],
);

export const products = pgTable(
  "products",
  {
    id: serial("id").primaryKey(),
    barcode: text("barcode").notNull(),
    /**
     * What the barcode is compared by: gtinKey() of contract/gtin.ts (its SQL twin gtin_key()
     * fills it on every insert and barcode change, migration 0005). NULL only on a product that
     * already shared a GTIN with an older one when the key came in: found by its exact barcode.
     */
    barcodeKey: text("barcode_key"),
    productName: text("product_name").notNull(),
    vendor: text("vendor").notNull(),
    releaseYear: integer("release_year"),
    quantityOnHand: integer("quantity_on_hand").notNull().default(0),
    isActive: boolean("is_active").notNull().default(true),
    /** Card details, all optional. Money in whole cents of the shop's currency (CURRENCY). */
    price: integer("price"),
    cost: integer("cost"),
    condition: text("condition", { enum: CONDITIONS }),
    grader: text("grader", { enum: GRADERS }),
    grade: text("grade"),
    setName: text("set_name"),
    cardNumber: text("card_number"),
    location: text("location"),
    /** Stock at or under this is to be reordered (migration 0012); NULL when not set. */
    reorderPoint: integer("reorder_point"),
    /**
     * The product's photos in the API shape, the cover first (migration 0009): kept on the row so
     * every answer built from it (product_json(), toProduct) carries them without a join. Photo
     * ids come from product_photo_seq; the files are named by their content's hash (MEDIA_DIR).
     */
    photos: jsonb("photos").$type<Photo[]>().notNull().default([]),
    version: integer("version").notNull().default(1),
    /** From product_revision_seq through take_revision(), in the transaction of each change (migration 0002). */
    revision: bigint("revision", { mode: "number" }).notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("products_barcode_idx").on(t.barcode),
    uniqueIndex("products_barcode_key_idx").on(t.barcodeKey),
    index("products_created_idx").on(t.createdAt.desc(), t.id.desc()),
    // (revision, id): the catalogue's catch-up reads its pages after (revision, id) in that order
    // (catalogue-mirror.ts); an index on revision alone made each page sort a batch's products.
    index("products_revision_id_idx").on(t.revision, t.id),
    check("products_quantity_check", sql`${t.quantityOnHand} >= 0`),
    check("products_price_check", sql`${t.price} between 0 and ${sql.raw(String(MONEY_MAX_CENTS))}`),
    check("products_cost_check", sql`${t.cost} between 0 and ${sql.raw(String(MONEY_MAX_CENTS))}`),
    check("products_condition_check", sql`${t.condition} in (${sql.raw(CONDITIONS.map((c) => `'${c}'`).join(", "))})`),
    check("products_grader_check", sql`${t.grader} in (${sql.raw(GRADERS.map((c) => `'${c}'`).join(", "))})`),
    check("products_reorder_point_check", sql`${t.reorderPoint} >= 0`),
    // The "To reorder" list (reports): active products at or under their point.
    index("products_reorder_idx").on(t.vendor, t.productName).where(sql`${t.reorderPoint} is not null and ${t.isActive}`),
  ],
);

export const productAudit = pgTable(
  "product_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    barcode: text("barcode").notNull(),
    action: text("action", {
      enum: ["CREATE", "UPDATE", "DELETE", "DISABLE", "ENABLE", "QUANTITY_ADD", "QUANTITY_SUBTRACT"],
    }).notNull(),
    timestamp: ts("timestamp").notNull().defaultNow(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    changedFields: jsonb("changed_fields").$type<string[]>().notNull().default([]),
    oldValues: jsonb("old_values").$type<Record<string, unknown> | null>(),
    newValues: jsonb("new_values").$type<Record<string, unknown> | null>(),
    ipAddress: text("ip_address"),
    /** The product version this change produced; NULL on rows written before migration 0002. */
    productVersion: integer("product_version"),
    /** The import that made this change (migration 0008): what an undo reverts. */
    importId: uuid("import_id"),
  },
  (t) => [
    index("product_audit_time_idx").on(t.timestamp.desc(), t.id.desc()),
    index("product_audit_product_idx").on(t.productId, t.timestamp.desc()),
    index("product_audit_product_version_idx").on(t.productId, t.productVersion),
    index("product_audit_user_idx").on(t.userId),
    index("product_audit_import_idx").on(t.importId, t.id).where(sql`${t.importId} is not null`),
  ],
);

/**
 * Shows: a stream's ledger. One running show (ended_at NULL) per user; the taps made during it
 * carry its id in quantity_audit.show_id (apply_quantity_change, migration 0006).
 */
export const shows = pgTable(
  "shows",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    startedBy: integer("started_by").references(() => users.id, { onDelete: "set null" }),
    startedByName: text("started_by_name").notNull(),
    startedAt: ts("started_at").notNull().defaultNow(),
    endedAt: ts("ended_at"),
    endedByName: text("ended_by_name"),
  },
  (t) => [
    uniqueIndex("shows_one_running_per_user_idx").on(t.startedBy).where(sql`${t.endedAt} is null`),
    index("shows_started_idx").on(t.startedAt.desc(), t.id.desc()),
  ],
);

export const quantityAudit = pgTable(
  "quantity_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    productName: text("product_name").notNull(),
    barcode: text("barcode").notNull(),
    quantityChange: integer("quantity_change").notNull(),
    quantityBefore: integer("quantity_before").notNull(),
    quantityAfter: integer("quantity_after").notNull(),
    transactionType: text("transaction_type", { enum: ["create", "adjustment", "edit", "import"] }).notNull(),
    notes: text("notes"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    timestamp: ts("timestamp").notNull().defaultNow(),
    /** The show the tap was made in (migration 0006), else NULL. */
    showId: integer("show_id").references(() => shows.id, { onDelete: "set null" }),
    /** The order this change belongs to (its lines, or its cancellation's restock; migration 0011), else NULL. */
    orderId: integer("order_id").references(() => orders.id, { onDelete: "set null" }),
    /**
     * The price of one unit at the change (migration 0011): an order line's unit price, else the
     * product's price then; NULL when neither was set. What a show's revenue and the reports'
     * sales are summed from (rows from before 0011 filled in by 0012 from the product audit).
     */
    unitPrice: integer("unit_price"),
    /** The stock take whose approval made this change (migration 0024), else NULL. */
    stockTakeId: integer("stock_take_id").references(() => stockTakes.id, { onDelete: "set null" }),
  },
  (t) => [
    index("quantity_audit_time_idx").on(t.timestamp.desc(), t.id.desc()),
    index("quantity_audit_product_idx").on(t.productId, t.timestamp.desc()),
    index("quantity_audit_user_idx").on(t.userId),
    index("quantity_audit_show_idx").on(t.showId, t.id),
    index("quantity_audit_order_idx").on(t.orderId).where(sql`${t.orderId} is not null`),
    // A product's changes after a stock take's first scan of it (its audit position, stock_take_lines.base_audit_id).
    index("quantity_audit_product_id_idx").on(t.productId, t.id),
    // Reports (migration 0012): the sale taps (reports.repo.ts SALE_TAP) by time, covering what
    // the sales series sums, and by product for the last sale of each product.
    index("quantity_audit_sale_time_idx")
      .on(t.timestamp)
      .where(sql`${t.transactionType} = 'adjustment' and (${t.showId} is not null or ${t.notes} in ('Streamer adjustment', 'Undo'))`),
    // Shows compared: a show's sale taps (INCLUDE added by hand in the migration).
    index("quantity_audit_show_sale_idx").on(t.showId).where(sql`${t.showId} is not null and ${t.transactionType} = 'adjustment'`),
    index("quantity_audit_sale_product_idx")
      .on(t.productId, t.timestamp)
      .where(sql`${t.transactionType} = 'adjustment' and (${t.showId} is not null or ${t.notes} in ('Streamer adjustment', 'Undo'))`),
  ],
);

/**
 * API tokens (migration 0011): only the SHA-256 of the secret is stored, with its first
 * characters (`prefix`) to tell tokens apart. Names are unique and never reused, so the audit's
 * `token:<name>` names one token. A revoked token keeps its row (the audit still names it). A
 * token acts for its maker (`created_by`): it works only while that user is active, and only with
 * the scopes the user's current role allows (contract/token-rules.ts SCOPE_PERMISSIONS).
 */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    scopes: jsonb("scopes").$type<string[]>().notNull(),
    /** The only channels an `orders:write` token places, cancels and reads orders in (migration 0019); NULL: every channel. */
    channels: jsonb("channels").$type<string[]>(),
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdByName: text("created_by_name").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    lastUsedAt: ts("last_used_at"),
    revokedAt: ts("revoked_at"),
  },
  (t) => [uniqueIndex("api_tokens_hash_idx").on(t.tokenHash), uniqueIndex("api_tokens_name_lower_idx").on(sql`lower(${t.name})`)],
);

/**
 * Orders (migration 0011): a sale on any channel, once per channel and external id. Its lines
 * are applied as quantity changes that carry the order's id (quantity_audit.order_id).
 */
export const orders = pgTable(
  "orders",
  {
    id: serial("id").primaryKey(),
    channel: text("channel").notNull(),
    externalId: text("external_id").notNull(),
    status: text("status", { enum: ["completed", "cancelled"] })
      .notNull()
      .default("completed"),
    note: text("note"),
    /** Sum of the priced lines in cents; NULL when no line has a price. */
    total: bigint("total", { mode: "number" }),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: text("created_by").notNull(),
    cancelledAt: ts("cancelled_at"),
    cancelledBy: text("cancelled_by"),
  },
  (t) => [
    uniqueIndex("orders_channel_external_idx").on(t.channel, t.externalId),
    index("orders_created_idx").on(t.createdAt.desc(), t.id.desc()),
    check("orders_status_check", sql`${t.status} in ('completed', 'cancelled')`),
  ],
);

export const orderLines = pgTable(
  "order_lines",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    barcode: text("barcode").notNull(),
    productName: text("product_name").notNull(),
    quantity: integer("quantity").notNull(),
    unitPrice: integer("unit_price"),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.line] })],
);

/**
 * Stock value at the end of each day in TIMEZONE (migration 0012): units, at price and at cost.
 * Written for each day that ended by the reports' daily job, and filled in at start-up for missing
 * days by replaying the quantity audit back from today's stock (reports.repo.ts fillStockValueDays).
 */
export const stockValueDaily = pgTable("stock_value_daily", {
  day: date("day", { mode: "string" }).primaryKey(),
  /** The TIMEZONE the day was counted in: rows of another zone are counted again. */
  timezone: text("timezone").notNull(),
  units: bigint("units", { mode: "number" }).notNull(),
  atPrice: bigint("at_price", { mode: "number" }).notNull(),
  atCost: bigint("at_cost", { mode: "number" }).notNull(),
  writtenAt: ts("written_at").notNull().defaultNow(),
});

/**
 * Sales summed per day of TIMEZONE and source (migration 0012), for the days the reports' job
 * has rolled up (report_rollups.through); later days are summed from the quantity audit itself.
 */
export const salesDaily = pgTable(
  "sales_daily",
  {
    day: date("day", { mode: "string" }).notNull(),
    source: text("source").notNull(),
    units: bigint("units", { mode: "number" }).notNull(),
    revenue: bigint("revenue", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.source] })],
);

/** Sales summed per month of TIMEZONE (its first day) and product, for the days rolled up (top sellers). */
export const salesMonthly = pgTable(
  "sales_monthly",
  {
    month: date("month", { mode: "string" }).notNull(),
    productId: integer("product_id").notNull(),
    units: bigint("units", { mode: "number" }).notNull(),
    revenue: bigint("revenue", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.productId] })],
);

/** How far the sales roll-ups reach: every day up to `through` (in `timezone`) is in sales_daily and sales_monthly. */
export const reportRollups = pgTable("report_rollups", {
  name: text("name").primaryKey(),
  timezone: text("timezone").notNull(),
  through: date("through", { mode: "string" }),
  rolledUpAt: ts("rolled_up_at").notNull().defaultNow(),
});

/** First answers of quantity changes, per user and Idempotency-Key, so retries never apply twice. */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    statusCode: integer("status_code").notNull(),
    body: jsonb("body").notNull(),
    /** SHA-256 of the request the key was first used for: the same key on another request is refused (422). */
    requestHash: text("request_hash"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);

/**
 * Fixed-window counters of the login throttle (@fastify/rate-limit's store, in the database so
 * every server process counts the same failures): one row per key ("address:...", "user:...").
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").primaryKey(),
    hits: integer("hits").notNull(),
    windowStartedAt: ts("window_started_at").notNull(),
  },
  (t) => [index("rate_limits_window_idx").on(t.windowStartedAt)],
);

/**
 * Imports as durable jobs (migration 0008). One row per import: who, its status
 * (staging -> committing -> done | failed), its counts and the cursor `processed`, the rows
 * written so far in file order. The runner that holds `lease_until` writes the next batch and
 * advances the cursor in the same transaction, so each row is written exactly once; a lease that
 * runs out (its process died) lets another process, or the next start, take the import over.
 */
export const imports = pgTable(
  "imports",
  {
    id: uuid("id").primaryKey(),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    ipAddress: text("ip_address"),
    status: text("status", { enum: ["staging", "committing", "done", "failed"] }).notNull(),
    /** The file row number of the first row (2: row 1 is the header). */
    firstRow: integer("first_row").notNull().default(2),
    rows: integer("rows").notNull().default(0),
    processed: integer("processed").notNull().default(0),
    created: integer("created").notNull().default(0),
    updated: integer("updated").notNull().default(0),
    skipped: integer("skipped").notNull().default(0),
    errorCount: integer("error_count").notNull().default(0),
    error: text("error"),
    runner: text("runner"),
    leaseUntil: ts("lease_until"),
    attempts: integer("attempts").notNull().default(0),
    createdAt: ts("created_at").notNull().defaultNow(),
    touchedAt: ts("touched_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    undoneAt: ts("undone_at"),
    undoneBy: text("undone_by"),
  },
  (t) => [
    index("imports_created_idx").on(t.createdAt.desc()),
    index("imports_committing_idx").on(t.leaseUntil).where(sql`${t.status} = 'committing'`),
  ],
);

/** An import's rows as received, in chunks of at most IMPORT_CHUNK_ROWS; `start` is the chunk's first row index, set on commit. */
export const importChunks = pgTable(
  "import_chunks",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    part: integer("part").notNull(),
    chunk: integer("chunk").notNull(),
    rowCount: integer("row_count").notNull(),
    start: integer("start"),
    /** The rows' JSON text as received, kept as text (uncompressed, migration 0017): stored once, read once, deleted when written. */
    rows: text("rows").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.part, t.chunk] }), index("import_chunks_start_idx").on(t.importId, t.start)],
);

/** An import's row errors, in row order ("Row N: ..."). */
export const importErrors = pgTable(
  "import_errors",
  {
    importId: uuid("import_id")
      .notNull()
      .references(() => imports.id, { onDelete: "cascade" }),
    row: integer("row").notNull(),
    seq: integer("seq").notNull(),
    message: text("message").notNull(),
  },
  (t) => [primaryKey({ columns: [t.importId, t.row, t.seq] })],
);

/**
 * Webhook endpoints (migration 0013). `secret` is the Standard Webhooks `whsec_<base64>` secret,
 * kept as it is because every delivery is signed with it; the API shows it once. `failing_since`:
 * the first failed attempt since the last success; an endpoint failing for 24 hours is disabled
 * with `disabled_reason`.
 */
export const webhooks = pgTable("webhooks", {
  id: serial("id").primaryKey(),
  url: text("url").notNull(),
  events: jsonb("events").$type<string[]>().notNull(),
  description: text("description").notNull().default(""),
  secret: text("secret").notNull(),
  enabled: boolean("enabled").notNull().default(true),
  /** Random, per webhook: its deliveries' webhook-ids are `msg_<prefix>_<delivery id>`, unique across installations too. */
  messagePrefix: text("message_prefix").notNull().default(sql`left(replace(gen_random_uuid()::text, '-', ''), 12)`),
  disabledReason: text("disabled_reason"),
  failingSince: ts("failing_since"),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * The outbox (migration 0013): one row per event and subscribed webhook, written by
 * enqueue_webhook_event() in the transaction of the change it reports (triggers on the audit
 * tables and on imports), sent after the commit by the webhook worker. `next_attempt_at` NULL:
 * waiting behind an earlier pending delivery of the same product to the same webhook (each
 * product's deliveries go in commit order). `lease_until`: an attempt is under way in some process.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /**
     * No foreign key: every tap a webhook hears of would take a key-share lock on the webhook's
     * row (contended on PostgreSQL). deleteWebhookRow deletes a webhook's deliveries with it.
     */
    webhookId: integer("webhook_id").notNull(),
    /**
     * The `webhook-id` of every attempt: `msg_<the webhook's message_prefix>_<id>`, set by
     * enqueue_webhook_event() (no random number per row: on the embedded database that costs as
     * much as the insert itself).
     */
    messageId: text("message_id").notNull(),
    type: text("type").notNull(),
    productId: integer("product_id"),
    /** json, not jsonb: written on every reported tap, where turning product_json()'s json into jsonb costs a parse. */
    data: json("data").notNull(),
    status: text("status", { enum: ["pending", "succeeded", "failed"] })
      .notNull()
      .default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastStatus: integer("last_status"),
    lastError: text("last_error"),
    nextAttemptAt: ts("next_attempt_at").defaultNow(),
    leaseUntil: ts("lease_until"),
    createdAt: ts("created_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("webhook_deliveries_due_idx").on(t.nextAttemptAt).where(sql`${t.status} = 'pending' and ${t.nextAttemptAt} is not null`),
    index("webhook_deliveries_lane_idx").on(t.webhookId, t.productId, t.id).where(sql`${t.status} = 'pending'`),
  ],
);

const FINISH_SQL = sql.raw(FINISHES.map((f) => `'${f}'`).join(", "));

/**
 * How a product is found in market price feeds (migration 0021): its ids at the sources, its
 * printing, and whether a person froze its price. Kept beside the product, not on it: feeds and
 * repricing change these without making the product a catalogue change every screen downloads.
 */
export const productMarket = pgTable(
  "product_market",
  {
    productId: integer("product_id")
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    tcgplayerProductId: integer("tcgplayer_product_id"),
    scryfallId: text("scryfall_id"),
    pokemontcgId: text("pokemontcg_id"),
    /** Ids at other sources, by source name ({"cardmarket": "12345"}). */
    externalIds: jsonb("external_ids").$type<Record<string, string>>().notNull().default({}),
    finish: text("finish", { enum: FINISHES }).notNull().default("normal"),
    /** A price a person set by hand that no repricing rule moves until unfrozen. */
    priceFrozen: boolean("price_frozen").notNull().default(false),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    index("product_market_tcgplayer_idx").on(t.tcgplayerProductId),
    index("product_market_scryfall_idx").on(t.scryfallId),
    index("product_market_pokemontcg_idx").on(t.pokemontcgId),
    check("product_market_finish_check", sql`${t.finish} in (${FINISH_SQL})`),
  ],
);

/** Price feeds the shop set up (migration 0021): uploaded in the Prices screen or fetched daily from `url`. */
export const priceFeeds = pgTable("price_feeds", {
  id: serial("id").primaryKey(),
  name: text("name").notNull().unique(),
  format: text("format", { enum: FEED_FORMATS }).notNull(),
  /** Where the server fetches it daily (TCGCSV: the prices URL); null: uploaded only. */
  url: text("url"),
  /** TCGCSV only: the products URL that goes with `url`. */
  productsUrl: text("products_url"),
  /** The shop's day the schedule last fetched it: one process fetches it once a day (it claims the day first). */
  fetchedOn: date("fetched_on", { mode: "string" }),
  createdAt: ts("created_at").notNull().defaultNow(),
  createdBy: integer("created_by").references(() => users.id, { onDelete: "set null" }),
});

/** One reading of a feed: running, done (its cards matched and priced) or failed (nothing changed). */
export const priceFeedRuns = pgTable(
  "price_feed_runs",
  {
    id: serial("id").primaryKey(),
    feedId: integer("feed_id")
      .notNull()
      .references(() => priceFeeds.id, { onDelete: "cascade" }),
    status: text("status", { enum: ["running", "done", "failed"] }).notNull(),
    trigger: text("trigger", { enum: ["upload", "schedule", "request"] }).notNull(),
    /** The shop's day the prices were seen on (TIMEZONE). */
    day: date("day", { mode: "string" }).notNull(),
    records: integer("records").notNull().default(0),
    matched: integer("matched").notNull().default(0),
    proposals: integer("proposals").notNull().default(0),
    /** The first problems the parser reported ("Row 7: ..."), at most 100. */
    problems: jsonb("problems").$type<string[]>().notNull().default([]),
    error: text("error"),
    startedAt: ts("started_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    startedBy: integer("started_by").references(() => users.id, { onDelete: "set null" }),
  },
  (t) => [index("price_feed_runs_feed_idx").on(t.feedId, t.id.desc())],
);

/**
 * The printings a feed's run priced, in the shop's currency: the run's staging while it reads
 * (a run that fails leaves the last good run's cards), then the catalogue an unmatched product is
 * linked from (search by name, pick the printing).
 */
export const feedCards = pgTable(
  "feed_cards",
  {
    runId: integer("run_id")
      .notNull()
      .references(() => priceFeedRuns.id, { onDelete: "cascade" }),
    seq: integer("seq").notNull(),
    tcgplayerProductId: integer("tcgplayer_product_id"),
    scryfallId: text("scryfall_id"),
    pokemontcgId: text("pokemontcg_id"),
    barcode: text("barcode"),
    externalSource: text("external_source"),
    externalId: text("external_id"),
    name: text("name"),
    setCode: text("set_code"),
    setName: text("set_name"),
    number: text("number"),
    /** card_number_key(number), set_key(set_code), set_key(set_name): what products are matched by (migration 0021's SQL functions). */
    numberKey: text("number_key"),
    setCodeKey: text("set_code_key"),
    setNameKey: text("set_name_key"),
    finish: text("finish", { enum: FINISHES }).notNull(),
    condition: text("condition", { enum: CONDITIONS }),
    market: integer("market"),
    low: integer("low"),
    mid: integer("mid"),
    high: integer("high"),
    directLow: integer("direct_low"),
  },
  (t) => [
    primaryKey({ columns: [t.runId, t.seq] }),
    index("feed_cards_tcgplayer_idx").on(t.runId, t.tcgplayerProductId),
    index("feed_cards_scryfall_idx").on(t.runId, t.scryfallId),
    index("feed_cards_pokemontcg_idx").on(t.runId, t.pokemontcgId),
    index("feed_cards_barcode_idx").on(t.runId, t.barcode),
    index("feed_cards_external_idx").on(t.runId, t.externalSource, t.externalId),
    index("feed_cards_set_code_idx").on(t.runId, t.numberKey, t.setCodeKey),
    index("feed_cards_set_name_idx").on(t.runId, t.numberKey, t.setNameKey),
  ],
);

/**
 * Market prices as a history (migration 0021): one row per product, feed and day its prices
 * changed; `checked_on` is the last day a feed confirmed them. Unchanged prices add no row, so a
 * year of daily feeds stays small. `by_condition`: a feed's own prices per condition (CSV feeds).
 */
export const marketPrices = pgTable(
  "market_prices",
  {
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    feedId: integer("feed_id")
      .notNull()
      .references(() => priceFeeds.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    checkedOn: date("checked_on", { mode: "string" }).notNull(),
    finish: text("finish", { enum: FINISHES }).notNull(),
    currency: text("currency").notNull(),
    market: integer("market"),
    low: integer("low"),
    mid: integer("mid"),
    high: integer("high"),
    directLow: integer("direct_low"),
    byCondition: jsonb("by_condition").$type<Record<string, number>>(),
  },
  (t) => [primaryKey({ columns: [t.productId, t.feedId, t.day] }), index("market_prices_feed_idx").on(t.feedId, t.productId)],
);

/** A manager's repricing rules (migration 0021): one row, the contract's PricingRules as JSON. */
export const pricingRules = pgTable("pricing_rules", {
  id: integer("id").primaryKey().default(1),
  rules: jsonb("rules").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
});

/**
 * A proposed price (migration 0021): made by a run of the rules, waiting for a manager, then
 * accepted (written by the import `import_id`), dismissed, or superseded by a later run's.
 */
export const priceProposals = pgTable(
  "price_proposals",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    runId: integer("run_id").references(() => priceFeedRuns.id, { onDelete: "set null" }),
    oldPrice: integer("old_price"),
    newPrice: integer("new_price").notNull(),
    market: integer("market").notNull(),
    estimated: boolean("estimated").notNull(),
    changePercent: doublePrecision("change_percent"),
    atStake: integer("at_stake").notNull(),
    big: boolean("big").notNull(),
    /** The rules' steps, in order, in words (why this price). */
    steps: jsonb("steps").$type<Array<{ rule: string; text: string; cents: number }>>().notNull(),
    /** The product's updated_at the proposal was made from: accepting merges like an import row with updated_at. */
    basedOn: ts("based_on").notNull(),
    status: text("status", { enum: ["pending", "accepted", "dismissed", "superseded"] })
      .notNull()
      .default("pending"),
    createdAt: ts("created_at").notNull().defaultNow(),
    decidedAt: ts("decided_at"),
    decidedBy: integer("decided_by").references(() => users.id, { onDelete: "set null" }),
    importId: uuid("import_id").references(() => imports.id, { onDelete: "set null" }),
  },
  (t) => [
    uniqueIndex("price_proposals_pending_idx").on(t.productId).where(sql`${t.status} = 'pending'`),
    index("price_proposals_stake_idx").on(t.atStake.desc()).where(sql`${t.status} = 'pending'`),
  ],
);

// The counter (migration 0023, issue 40): customers, store credit, trade-ins and buy settings.

/**
 * The shop's customers. Erasing one (erased_at) removes the person (name, email, phone, notes)
 * and keeps the row, so the money records that point to it (credit, trade-ins, orders) keep
 * their sums without the person.
 */
export const customers = pgTable(
  "customers",
  {
    id: serial("id").primaryKey(),
    name: text("name"),
    email: text("email"),
    phone: text("phone"),
    notes: text("notes"),
    createdAt: ts("created_at").notNull().defaultNow(),
    createdBy: text("created_by").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    erasedAt: ts("erased_at"),
    erasedBy: text("erased_by"),
  },
  (t) => [
    index("customers_name_idx").on(sql`lower(${t.name})`),
    check("customers_erased_check", sql`${t.erasedAt} is not null or ${t.name} is not null`),
  ],
);

/**
 * A customer's store credit balance: the sum of their ledger, kept with each entry in the entry's
 * statement (counter.repo.ts insertCreditEntry: the row's update is conditional, and its lock
 * makes concurrent spends wait in turn), never below 0 (the check is the last line).
 */
export const customerCredit = pgTable(
  "customer_credit",
  {
    customerId: integer("customer_id")
      .primaryKey()
      .references(() => customers.id, { onDelete: "restrict" }),
    balance: bigint("balance", { mode: "number" }).notNull().default(0),
  },
  (t) => [check("customer_credit_balance_check", sql`${t.balance} >= 0`)],
);

/**
 * Store credit as an append-only ledger: a trigger refuses every UPDATE and DELETE (migration
 * 0023). Each entry carries who wrote it and why, and the balance it left.
 */
export const creditEntries = pgTable(
  "credit_entries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "restrict" }),
    amount: bigint("amount", { mode: "number" }).notNull(),
    kind: text("kind", { enum: ["trade_in", "order", "adjustment", "expiry"] }).notNull(),
    reason: text("reason").notNull(),
    tradeInId: integer("trade_in_id").references(() => tradeIns.id, { onDelete: "restrict" }),
    orderId: integer("order_id").references(() => orders.id, { onDelete: "restrict" }),
    balanceAfter: bigint("balance_after", { mode: "number" }).notNull(),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: text("created_by").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [
    index("credit_entries_customer_idx").on(t.customerId, t.id),
    check("credit_entries_kind_check", sql`${t.kind} in ('trade_in', 'order', 'adjustment', 'expiry')`),
    check("credit_entries_amount_check", sql`${t.amount} <> 0`),
  ],
);

/** Who did what to a customer's record (created, updated, exported, erased); never sent to sockets or webhooks. */
export const customerAudit = pgTable(
  "customer_audit",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "restrict" }),
    action: text("action", { enum: ["created", "updated", "exported", "erased"] }).notNull(),
    /** The fields changed (names only after an erasure: their values are gone). */
    fields: jsonb("fields").$type<string[]>().notNull().default([]),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    ipAddress: text("ip_address"),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("customer_audit_customer_idx").on(t.customerId, t.id)],
);

export const tradeIns = pgTable(
  "trade_ins",
  {
    id: serial("id").primaryKey(),
    /** The number on the receipt and in the quantity audit (`Trade-in #N`). */
    number: integer("number").notNull().default(sql`nextval('trade_in_number_seq')`),
    customerId: integer("customer_id").references(() => customers.id, { onDelete: "restrict" }),
    status: text("status", { enum: ["draft", "accepted", "void", "reversed"] })
      .notNull()
      .default("draft"),
    payout: text("payout", { enum: ["cash", "credit", "split"] })
      .notNull()
      .default("cash"),
    cashCents: bigint("cash_cents", { mode: "number" }).notNull().default(0),
    creditCents: bigint("credit_cents", { mode: "number" }).notNull().default(0),
    note: text("note"),
    /** Where it came from: made at the counter, or a customer's submission of the public buylist (no user made it). */
    source: text("source", { enum: ["counter", "online"] })
      .notNull()
      .default("counter"),
    createdById: integer("created_by_id").references(() => users.id, { onDelete: "set null" }),
    createdBy: text("created_by").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    acceptedBy: text("accepted_by"),
    acceptedAt: ts("accepted_at"),
    voidedBy: text("voided_by"),
    voidedAt: ts("voided_at"),
    /** An accepted trade-in reversed by a manager (its stock taken back out, its credit taken back), and why. */
    reversedBy: text("reversed_by"),
    reversedAt: ts("reversed_at"),
    reversalReason: text("reversal_reason"),
    /** An online buylist's draft approved by staff (Pending until then, Complete once accepted): who and when. */
    approvedBy: text("approved_by"),
    approvedAt: ts("approved_at"),
  },
  (t) => [
    uniqueIndex("trade_ins_number_idx").on(t.number),
    index("trade_ins_created_idx").on(t.createdAt.desc(), t.id.desc()),
    index("trade_ins_customer_idx").on(t.customerId),
    check("trade_ins_status_check", sql`${t.status} in ('draft', 'accepted', 'void', 'reversed')`),
    check("trade_ins_payout_check", sql`${t.payout} in ('cash', 'credit', 'split')`),
    check("trade_ins_source_check", sql`${t.source} in ('counter', 'online')`),
    check("trade_ins_money_check", sql`${t.cashCents} >= 0 and ${t.creditCents} >= 0`),
  ],
);

export const tradeInLines = pgTable(
  "trade_in_lines",
  {
    id: serial("id").primaryKey(),
    tradeInId: integer("trade_in_id")
      .notNull()
      .references(() => tradeIns.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "restrict" }),
    condition: text("condition", { enum: CONDITIONS }),
    quantity: integer("quantity").notNull(),
    marketCents: integer("market_cents"),
    offerCashCents: integer("offer_cash_cents").notNull(),
    offerCreditCents: integer("offer_credit_cents").notNull(),
    /** The offer was set by hand: saving the draft again keeps it. */
    offerByHand: boolean("offer_by_hand").notNull().default(false),
    struck: boolean("struck").notNull().default(false),
    note: text("note"),
    /** What one unit cost the shop, set when the trade-in is accepted (averaged into the product's cost). */
    paidUnitCents: integer("paid_unit_cents"),
  },
  (t) => [
    uniqueIndex("trade_in_lines_line_idx").on(t.tradeInId, t.line),
    index("trade_in_lines_product_idx").on(t.productId),
    check("trade_in_lines_quantity_check", sql`${t.quantity} > 0`),
    check("trade_in_lines_offer_check", sql`${t.offerCashCents} >= 0 and ${t.offerCreditCents} >= 0`),
  ],
);

/** The shop's buy settings (one row): the contract's BuySettings as JSON. */
export const buySettings = pgTable("buy_settings", {
  id: integer("id").primaryKey().default(1),
  settings: jsonb("settings").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
  updatedBy: integer("updated_by").references(() => users.id, { onDelete: "set null" }),
});

/**
 * How many of a product the shop wants on hand (a trade-in buys at most that minus the stock).
 * Beside the product, not on it (as product_market, decision 0013): a limit is no catalogue change.
 */
export const productBuyLimits = pgTable(
  "product_buy_limits",
  {
    productId: integer("product_id")
      .primaryKey()
      .references(() => products.id, { onDelete: "cascade" }),
    buyLimit: integer("buy_limit").notNull(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [check("product_buy_limits_check", sql`${t.buyLimit} >= 0`)],
);

/** The customer of an order (a counter sale), beside the order so its row stays as it was. */
export const orderCustomers = pgTable(
  "order_customers",
  {
    orderId: integer("order_id")
      .primaryKey()
      .references(() => orders.id, { onDelete: "cascade" }),
    customerId: integer("customer_id")
      .notNull()
      .references(() => customers.id, { onDelete: "restrict" }),
  },
  (t) => [index("order_customers_customer_idx").on(t.customerId)],
);

/** How an order was paid: cash, card, store credit, or a split of them. */
export const orderPayments = pgTable(
  "order_payments",
  {
    orderId: integer("order_id")
      .notNull()
      .references(() => orders.id, { onDelete: "cascade" }),
    line: integer("line").notNull(),
    method: text("method", { enum: ["cash", "card", "credit"] }).notNull(),
    amount: bigint("amount", { mode: "number" }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.line] }),
    check("order_payments_method_check", sql`${t.method} in ('cash', 'card', 'credit')`),
    check("order_payments_amount_check", sql`${t.amount} >= 0`),
  ],
);

/**
 * Locations the shop keeps (issue 41, migration 0024). Products keep their free-text `location`;
 * a product is in a location when its text is the location's name (trimmed, any case).
 */
export const locations = pgTable(
  "locations",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("locations_name_idx").on(sql`lower(${t.name})`)],
);

/** A count session: some locations (`location_ids`) or the whole shop (NULL). Its number is its id. */
export const stockTakes = pgTable(
  "stock_takes",
  {
    id: serial("id").primaryKey(),
    status: text("status", { enum: ["counting", "review", "approving", "approved", "cancelled"] })
      .notNull()
      .default("counting"),
    locationIds: jsonb("location_ids").$type<number[] | null>(),
    startedById: integer("started_by_id").references(() => users.id, { onDelete: "set null" }),
    startedBy: text("started_by").notNull(),
    startedAt: ts("started_at").notNull().defaultNow(),
    finishedAt: ts("finished_at"),
    approvedBy: text("approved_by"),
    /**
     * The approval's lease (migration 0029): while `approving`, the approver holding it (a random id)
     * renews it with each batch; a second approval finding it unexpired gets 409, one finding it
     * expired (the approver crashed or restarted) takes it over and resumes the pending lines.
     */
    approvalLeaseUntil: ts("approval_lease_until"),
    approvalLeaseHolder: text("approval_lease_holder"),
  },
  (t) => [
    index("stock_takes_started_idx").on(t.startedAt.desc(), t.id.desc()),
    check("stock_takes_status_check", sql`${t.status} in ('counting', 'review', 'approving', 'approved', 'cancelled')`),
  ],
);

/** Every scan as sent, once per client_scan_id in a session (an offline queue's replay), with what it found. */
export const stockTakeScans = pgTable(
  "stock_take_scans",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    stockTakeId: integer("stock_take_id")
      .notNull()
      .references(() => stockTakes.id, { onDelete: "cascade" }),
    clientScanId: text("client_scan_id").notNull(),
    barcode: text("barcode").notNull(),
    productId: integer("product_id").references(() => products.id, { onDelete: "set null" }),
    locationId: integer("location_id").references(() => locations.id, { onDelete: "set null" }),
    quantity: integer("quantity").notNull(),
    device: text("device"),
    userId: integer("user_id").references(() => users.id, { onDelete: "set null" }),
    userName: text("user_name").notNull(),
    scannedAt: ts("scanned_at").notNull().defaultNow(),
    /** The answer it was given (replayed as it was): found, new_to_location, unknown or already_counted. */
    result: text("result"),
    countBefore: integer("count_before").notNull().default(0),
    countedAfter: integer("counted_after").notNull().default(0),
    /** An unknown barcode's scans dropped in the review (migration 0029): kept for the record, left out of the review and report. */
    droppedAt: ts("dropped_at"),
    droppedBy: text("dropped_by"),
  },
  (t) => [
    uniqueIndex("stock_take_scans_client_idx").on(t.stockTakeId, t.clientScanId),
    index("stock_take_scans_product_idx").on(t.stockTakeId, t.productId),
    check("stock_take_scans_quantity_check", sql`${t.quantity} > 0`),
  ],
);

/**
 * One row per product counted in a session: its stock and audit position when first counted
 * (taken under the product's row lock), the counted sum, and once approved what was applied.
 */
export const stockTakeLines = pgTable(
  "stock_take_lines",
  {
    stockTakeId: integer("stock_take_id")
      .notNull()
      .references(() => stockTakes.id, { onDelete: "cascade" }),
    productId: integer("product_id")
      .notNull()
      .references(() => products.id, { onDelete: "cascade" }),
    baseQuantity: integer("base_quantity").notNull(),
    /** The product's last quantity_audit id when first counted: later changes move the expected figure. */
    baseAuditId: bigint("base_audit_id", { mode: "number" }).notNull(),
    counted: integer("counted").notNull().default(0),
    firstScannedAt: ts("first_scanned_at").notNull().defaultNow(),
    /** Set when approved: the expected figure then, and the change applied (NULL: left out of the approval). */
    approvedExpected: integer("approved_expected"),
    applied: integer("applied"),
    /**
     * The approval's progress on this line (migration 0025): `pending` once chosen for it (the session
     * is `approving`), `applied` when its batch committed, `refused` when its product could not take
     * its change then (disabled, or below 0); NULL: not in the approval.
     */
    approval: text("approval", { enum: ["pending", "applied", "refused"] }),
    /**
     * A product found away from its location, settled in the review (migration 0029): `moved` (its
     * location was changed to where it was found) or `kept` (counted where it was found, its location
     * kept); NULL: not settled (the review shows it misplaced).
     */
    placement: text("placement", { enum: ["moved", "kept"] }),
  },
  (t) => [
    primaryKey({ columns: [t.stockTakeId, t.productId] }),
    index("stock_take_lines_product_idx").on(t.productId),
    check("stock_take_lines_approval_check", sql`${t.approval} in ('pending', 'applied', 'refused')`),
    check("stock_take_lines_placement_check", sql`${t.placement} in ('moved', 'kept')`),
  ],
);
