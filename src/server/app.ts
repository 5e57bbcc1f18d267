import fastifyCompress from "@fastify/compress";
import fastifySwagger from "@fastify/swagger";
import fastifySwaggerUi from "@fastify/swagger-ui";
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  LogController,
  type RawReplyDefaultExpression,
  type RawRequestDefaultExpression,
  type RawServerDefault,
} from "fastify";
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import { type Database, type Db, ping } from "./db/client.js";
import { EventBus } from "./events.js";
import { auditRoutes } from "./modules/audit/audit.routes.js";
import { authRoutes } from "./modules/auth/auth.routes.js";
import { importRoutes } from "./modules/import/import.routes.js";
import { productsRoutes } from "./modules/products/products.routes.js";
import { usersRoutes } from "./modules/users/users.routes.js";
import { authPlugin } from "./plugins/auth.js";
import { registerErrorHandler } from "./plugins/errors.js";
import { originCheck } from "./plugins/origin-check.js";
import { realtimePlugin } from "./plugins/realtime.js";
import { securityHeadersPlugin } from "./plugins/security-headers.js";
import { staticClient } from "./plugins/static.js";

declare module "fastify" {
  interface FastifyInstance {
    config: Config;
    database: Database;
    db: Db;
    events: EventBus;
  }
}

export type App = FastifyInstance;
/** Route modules register on the zod-typed instance. */
export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Import bodies of 50,000 rows fit comfortably; anything larger is a 413. */
export const BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** Headers and fields never written to the logs. */
const REDACT = ["req.headers.cookie", "req.headers.authorization", 'res.headers["set-cookie"]'];

export interface BuildAppOptions {
  config: Config;
  database: Database;
  /** Serve the built client (off in server tests). */
  serveClient?: boolean;
}

export async function buildApp({ config, database, serveClient = true }: BuildAppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: config.LOG_LEVEL === "silent" ? false : { level: config.LOG_LEVEL, redact: REDACT },
    // Two log lines per request cost more than a scan's lookup itself: per-request lines only when
    // debugging. Errors, refusals by the database and outages are logged by the error handler.
    logController: new LogController({ disableRequestLogging: config.LOG_LEVEL !== "debug" && config.LOG_LEVEL !== "trace" }),
    trustProxy: config.TRUST_PROXY,
    bodyLimit: BODY_LIMIT_BYTES,
    // Long enough for a socket.io long-polling request.
    requestTimeout: 60_000,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.decorate("config", config);
  app.decorate("database", database);
  app.decorate("db", database.db);
  app.decorate("events", new EventBus());

  registerErrorHandler(app);
  await app.register(securityHeadersPlugin);
  // gzip/brotli (brotli at quality 4) for answers of 1 KB and more: the catalogue list above all.
  // Files the client build already compressed go out as they are; socket.io answers outside Fastify.
  await app.register(fastifyCompress, { threshold: 1024 });
  await app.register(originCheck);
  await app.register(authPlugin);

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: "Blez Inventory API", version: "1.0.0" },
      components: { securitySchemes: { session: { type: "apiKey", in: "cookie", name: "blez_session" } } },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: "/api/docs" });

  app.get("/api/health", { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ping(app.db);
      return { ok: true };
    } catch {
      return reply.code(503).send({ error: "Database unavailable. Please try again shortly." });
    }
  });

  await app.register(
    async (api) => {
      const zapp = api.withTypeProvider<ZodTypeProvider>();
      await authRoutes(zapp);
      await usersRoutes(zapp);
      await productsRoutes(zapp);
      await importRoutes(zapp);
      await auditRoutes(zapp);
    },
    { prefix: "/api" },
  );

  await app.register(realtimePlugin);
  await app.register(staticClient, { serve: serveClient });
  return app;
}
