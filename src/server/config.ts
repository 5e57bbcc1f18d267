import { fileURLToPath } from "node:url";
import { z } from "zod";
import { SOCKET_AUTH_TIMEOUT_MS } from "../contract/events.js";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on");

/** The one reading of process.env (API contract, Configuration). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  DATA_DIR: z.string().min(1).default("./data"),
  ADMIN_USERNAME: z.string().min(1).default("admin"),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  TRUST_PROXY: flag,
  COOKIE_SECURE: flag,
  /** The built client to serve (tests point this at their own build). */
  CLIENT_DIR: z
    .string()
    .min(1)
    .default(fileURLToPath(new URL("../../dist/client", import.meta.url))),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Failed logins allowed per client address and username within LOGIN_WINDOW_MINUTES before 429. */
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** A socket that has not authenticated within this time is dropped (10 s; tests shorten it). */
  SOCKET_AUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(SOCKET_AUTH_TIMEOUT_MS),
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** Defaults for tests and tools: everything from the schema, overridable. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), LOG_LEVEL: "silent", ...overrides };
}
