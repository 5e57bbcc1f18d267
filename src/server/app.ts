import fastifyCompress from "@fastify/compress";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from "fastify";
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import { DEFAULT_BODY_LIMIT_BYTES } from "./body-limits.js";
import type { Config, TrustProxy } from "./config.js";
import type { Database, Db } from "./db/client.js";
import { EmbeddedMaintenance } from "./db/embedded-maintenance.js";
import { EventBus } from "./events.js";
import { CA_CERT_PATH } from "./https.js";
import { logDestination } from "./logging.js";
import { auditRoutes } from "./modules/audit/audit.routes.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { counterRoutes } from "./modules/counter/counter.routes.js";
import { healthRoutes } from "./modules/health/health.routes.js";
import { importRoutes } from "./modules/import/import.routes.js";
import { IMPORT_RUNNER_DEFAULTS, ImportRunner } from "./modules/import/import-runner.js";
import { ordersRoutes } from "./modules/orders/orders.routes.js";
import { photosRoutes } from "./modules/photos/photos.routes.js";
import { marketViewsRoutes } from "./modules/prices/market-views.routes.js";
import { PriceFeedSchedule } from "./modules/prices/price-schedule.js";
import { pricesRoutes } from "./modules/prices/prices.routes.js";
import { productsRoutes } from "./modules/products/products.routes.js";
import { reportsRoutes } from "./modules/reports/reports.routes.js";
import { ReportsJob } from "./modules/reports/reports-job.js";
import { Sessions } from "./modules/sessions/sessions.service.js";
import { settingsRoutes } from "./modules/settings/settings.routes.js";
import { showsRoutes } from "./modules/shows/shows.routes.js";
import { stockTakesRoutes } from "./modules/stock-takes/stock-takes.routes.js";
import { ApiTokens } from "./modules/tokens/api-tokens.js";
import { tokensRoutes } from "./modules/tokens/tokens.routes.js";
import { usersRoutes } from "./modules/users/users.routes.js";
import { WebhookTargets } from "./modules/webhooks/webhook-targets.js";
import { WebhookWorker } from "./modules/webhooks/webhook-worker.js";
import { webhooksRoutes } from "./modules/webhooks/webhooks.routes.js";
import { openapiTransform } from "./openapi.js";
import { apiAuth } from "./plugins/auth.js";
import { registerErrorHandler } from "./plugins/errors.js";
import { jsonBody } from "./plugins/json-body.js";
import { originCheck } from "./plugins/origin-check.js";
import { realtimePlugin } from "./plugins/realtime.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { staticClient } from "./plugins/static.js";
import { API_DOCS_PREFIX, API_PREFIX } from "./server-addresses.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    events: EventBus;
    sessions: Sessions;
    /** API tokens' secrets to actors (Authorization: Bearer), with revocation across processes. */
    apiTokens: ApiTokens;
    /** Writes committed imports (durable jobs) in short transactions, and resumes the ones cut off. */
    importRunner: ImportRunner;
    /** The reports' daily work: stock value per day and the sales roll-ups, at start-up and hourly. */
    reportsJob: ReportsJob;
    /** Sends the webhook outbox after each commit, and retries (modules/webhooks). */
    webhookWorker: WebhookWorker;
    /** The embedded database's vacuuming and analysing when the shop is quiet (PGlite has no autovacuum). */
    embeddedMaintenance: EmbeddedMaintenance;
  }
}

export type App = FastifyInstance;

/** Headers and fields never written to the logs. */
const REDACT = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Serve the built client (off in server tests). */
  serveClient?: boolean;
  /** Serve HTTPS with this certificate (HTTPS=1: https.ts loadTls); `ca`: the local authority that issued it. */
  tls?: { key: string; cert: string; ca?: { cert: string } };
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count becomes "trust the first N hops": Fastify
 * itself ignores X-Forwarded-For entirely for a plain number.
 */
function trustProxyOption(trust: TrustProxy): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trust === "number") return trust === 0 ? false : (_address, hop) => hop < trust;
  return trust;
}

/** Long enough for a socket.io long-polling request. */
const REQUEST_TIMEOUT_MS = 60_000;

export async function buildApp({ config, database, serveClient = true, tls }: BuildAppOptions): Promise<FastifyInstance> {
  const requestLines = config.LOG_LEVEL === "debug" || config.LOG_LEVEL === "trace";
  const options = {
    logger: config.LOG_LEVEL === "silent" ? false : { level: config.LOG_LEVEL, redact: REDACT, ...logDestination(config) },
    // Two log lines per request cost more than a scan's lookup itself: per-request lines only when
    // debugging. Errors, refusals by the database and outages are logged by the error handler.
    logController: new LogController({ disableRequestLogging: !requestLines }),
    // Without the request lines, a request id in the few lines a request writes (its errors)
    // names nothing to look up: the request logs through the app's logger, without a child
    // logger made for every request (bench/hot-paths).
    ...(requestLines ? {} : { childLoggerFactory: (logger: FastifyBaseLogger) => logger }),
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    bodyLimit: DEFAULT_BODY_LIMIT_BYTES,
    requestTimeout: REQUEST_TIMEOUT_MS,
  };
  // HTTPS=1: Fastify's own HTTPS server. The app keeps one type whichever it serves (the routes,
  // socket.io and the tests see the same instance API either way).
  const app = tls ? (Fastify({ ...options, https: { key: tls.key, cert: tls.cert } }) as unknown as FastifyInstance) : Fastify(options);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  const events = new EventBus();
  app.decorate("events", events);
  app.decorate("sessions", new Sessions(database.db, config, events));
  app.decorate("apiTokens", new ApiTokens(database.db, config));
  const importRunner = new ImportRunner(database, events, app.log, {
    ...IMPORT_RUNNER_DEFAULTS,
    maxBatchRows: config.IMPORT_BATCH_ROWS,
    leaseMs: config.IMPORT_LEASE_SECONDS * 1000,
    // The embedded database has one connection for everything: a tap waits for the batch on it.
    // While nobody else uses it, the batches may be as long as on PostgreSQL.
    batchTargetMs: database.kind === "pglite" ? 50 : IMPORT_RUNNER_DEFAULTS.batchTargetMs,
    quietBatchTargetMs: database.kind === "pglite" ? IMPORT_RUNNER_DEFAULTS.batchTargetMs : undefined,
    // One server per embedded data folder (its lock): an import still committing at start was cut off here.
    ownsAll: database.kind === "pglite",
  });
  app.decorate("importRunner", importRunner);
  app.addHook("onReady", async () => importRunner.start());
  app.addHook("onClose", async () => importRunner.close());
  const reportsJob = new ReportsJob(database.bulk.db, config.TIMEZONE, app.log);
  app.decorate("reportsJob", reportsJob);
  app.addHook("onReady", async () => reportsJob.start());
  app.addHook("onClose", async () => reportsJob.close());
  const webhookWorker = new WebhookWorker(database.db, app.log, {
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    retryDelaysMs: config.WEBHOOK_RETRY_DELAYS_MS,
    giveUpMs: config.WEBHOOK_GIVE_UP_MS,
    pollMs: config.WEBHOOK_POLL_MS,
    concurrency: config.WEBHOOK_CONCURRENCY,
    allowedHosts: config.WEBHOOK_ALLOWED_HOSTS,
  });
  app.decorate("webhookWorker", webhookWorker);
  // Every committed change raises inventory_update after its commit: its deliveries are in the outbox by then.
  events.on("inventory_update", () => webhookWorker.nudge());
  app.addHook("onReady", async () => webhookWorker.start());
  app.addHook("onClose", async () => webhookWorker.close());
  const priceFeedSchedule = new PriceFeedSchedule(
    database,
    new WebhookTargets(config.WEBHOOK_ALLOWED_HOSTS),
    app.log,
    { at: config.PRICE_FEEDS_AT, timezone: config.TIMEZONE, currency: config.CURRENCY },
    { runner: importRunner, events, config },
  );
  app.addHook("onReady", async () => priceFeedSchedule.start());
  app.addHook("onClose", async () => priceFeedSchedule.close());
  let lastRequestAt = Date.now();
  // Only the embedded database is maintained when quiet: on PostgreSQL no request pays for the hook.
  // Callback-style: an async hook costs every request a promise and its turns (bench/hot-paths).
  if (database.kind === "pglite") {
    app.addHook("onRequest", (_request, _reply, done) => {
      lastRequestAt = Date.now();
      done();
    });
  }
  const embeddedMaintenance = new EmbeddedMaintenance(database, app.log, () => lastRequestAt);
  app.decorate("embeddedMaintenance", embeddedMaintenance);
  app.addHook("onReady", async () => embeddedMaintenance.start());
  app.addHook("onClose", async () => embeddedMaintenance.close());

  registerErrorHandler(app);
  // Every route's JSON bodies: too deep a body is refused while it is parsed, before any handler.
  await app.register(jsonBody);
  await app.register(securityHeadersPlugin);
  // gzip/brotli (brotli at quality 4) for answers of 1 KB and more: the catalogue list above all.
  // Files the client build already compressed go out as they are; socket.io answers outside Fastify.
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(originCheck);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Blez Inventory API", version: "1.0.0" },
      // The paths start with /api on the origin that serves the app: a generated client needs only that origin.
      servers: [{ url: "/", description: "The origin serving the app (its address on the shop's network or behind its proxy)" }],
      components: {
        securitySchemes: {
          session: { type: "apiKey", in: "cookie", name: "blez_session" },
          bearer: {
            type: "http",
            scheme: "bearer",
            description: "An API token's secret (`blez_...`), created by a manager in Integrations; each route needs its scope",
          },
        },
      },
    },
    // zod schemas to JSON Schema, plus every operation's operationId and the public routes' `security: []`.
    transform: openapiTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: API_DOCS_PREFIX });

  // A generated certificate's local authority, for phones to trust once (https.ts): public, like the certificate itself.
  const localAuthority = tls?.ca?.cert;
  if (localAuthority) {
    app.get(CA_CERT_PATH, { schema: { hide: true } }, async (_request, reply) =>
      reply
        .type("application/x-x509-ca-cert")
        .header("content-disposition", 'attachment; filename="blez-ca.crt"')
        .header("cache-control", "no-cache")
        .send(localAuthority),
    );
  }

  await app.register(
    async (api) => {
      // Every route below needs a session but the public ones (sign-in, sign-out, health).
      await api.register(apiAuth);
      const zapp = api.withTypeProvider<ZodTypeProvider>();
      await healthRoutes(zapp);
      await authRoutes(zapp);
      await usersRoutes(zapp);
      await productsRoutes(zapp);
      await settingsRoutes(zapp);
      await photosRoutes(zapp);
      await importRoutes(zapp);
      await auditRoutes(zapp);
      await showsRoutes(zapp);
      await tokensRoutes(zapp);
      await ordersRoutes(zapp);
      await stockTakesRoutes(zapp);
      await reportsRoutes(zapp);
      await webhooksRoutes(zapp);
      await pricesRoutes(zapp);
      await marketViewsRoutes(zapp);
      await counterRoutes(zapp);
    },
    { prefix: API_PREFIX },
  );

  await app.register(realtimePlugin);
  await app.register(staticClient, { serve: serveClient });
  return app;
}
