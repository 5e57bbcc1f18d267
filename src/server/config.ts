import { isIP } from "node:net";
import { join } from "node:path";
import { domainToASCII } from "node:url";
import { z } from "zod";
import { SOCKET_AUTH_TIMEOUT_MS } from "../contract/events.js";
import { CURRENCY_DEFAULT } from "../contract/rules.js";
import { projectRoot } from "./paths.js";

const flag = z
  .enum(["1", "0", "true", "false", "yes", "no", "on", "off", ""])
  .optional()
  .transform((v) => v === "1" || v === "true" || v === "yes" || v === "on");

/**
 * Which proxies in front of the server to believe about the client's address (X-Forwarded-For,
 * -Host, -Proto): off, a number of hops (`1`: the one reverse proxy in front; `true`, `yes` and
 * `on` mean 1 too), or a comma-separated list of proxy addresses or CIDR ranges. Never everyone.
 */
export type TrustProxy = false | number | string[];

const OFF = new Set(["", "0", "false", "no", "off"]);
const ONE_HOP = new Set(["true", "yes", "on"]);
const isAddressOrRange = (entry: string) => {
  const [address = "", bits, ...rest] = entry.split("/");
  if (rest.length > 0 || !isIP(address)) return false;
  const max = isIP(address) === 4 ? 32 : 128;
  return bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= max);
};

const trustProxy = z
  .string()
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const value = (raw ?? "").trim().toLowerCase();
    if (OFF.has(value)) return false;
    if (ONE_HOP.has(value)) return 1;
    if (/^\d+$/.test(value)) return Number(value);
    const entries = value.split(",").map((e) => e.trim());
    if (entries.every(isAddressOrRange)) return entries;
    ctx.addIssue({
      code: "custom",
      message: "expected a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges",
    });
    return z.NEVER;
  });

/** An entry of WEBHOOK_ALLOWED_HOSTS: a host name (as a URL writes it: lowercase, punycode) or an address range. */
export type AllowedHost = { name: string } | { address: string; prefix: number; family: "ipv4" | "ipv6" };

/** One entry of WEBHOOK_ALLOWED_HOSTS (`192.168.1.0/24`, `10.0.0.5`, `fd12::/16`, `sync.local`), or null when it is none of those. */
export function parseAllowedHost(raw: string): AllowedHost | null {
  const entry = raw.trim();
  const [address = "", bits, ...rest] = entry.split("/");
  const version = isIP(address);
  if (version !== 0) {
    const max = version === 4 ? 32 : 128;
    if (rest.length > 0 || (bits !== undefined && !(/^\d{1,3}$/.test(bits) && Number(bits) <= max))) return null;
    return { address, prefix: bits === undefined ? max : Number(bits), family: version === 4 ? "ipv4" : "ipv6" };
  }
  if (bits !== undefined) return null;
  const name = domainToASCII(entry).replace(/\.$/, "");
  // Numbers a URL would read as an address ("10.1", "300") are written in full instead, to mean what they say.
  if (isIP(name) || /^[\d.]+$/.test(name)) return null;
  return /^(?=.{1,253}$)[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?)*$/.test(name) ? { name } : null;
}

/** WEBHOOK_ALLOWED_HOSTS: comma-separated host names and CIDR ranges, each checked (kept as written, trimmed). */
const allowedHosts = z
  .string()
  .optional()
  .transform((raw, ctx): string[] => {
    const entries = (raw ?? "")
      .split(",")
      .map((e) => e.trim())
      .filter((e) => e !== "");
    const bad = entries.filter((e) => parseAllowedHost(e) === null);
    if (bad.length === 0) return entries;
    ctx.addIssue({
      code: "custom",
      message: `${bad.map((e) => JSON.stringify(e)).join(", ")}: expected host names and addresses or CIDR ranges, comma-separated, without a scheme or port (e.g. 192.168.1.0/24,sync.local)`,
    });
    return z.NEVER;
  });

/** A currency code this runtime can format (Intl knows every ISO 4217 code). */
function isCurrency(code: string): boolean {
  return /^[A-Z]{3}$/.test(code) && Intl.supportedValuesOf("currency").includes(code);
}

/** An IANA time zone name this runtime knows. */
function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false;
  try {
    new Intl.DateTimeFormat("en", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

/** The one reading of process.env (the README's Configuration lists the variables a shop sets). */
export const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default("0.0.0.0"),
  DATABASE_URL: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  DATA_DIR: z.string().min(1).default("./data"),
  /**
   * Where product photos are stored (files named by their content's hash); DATA_DIR/media when
   * unset. Several server processes on one PostgreSQL database share one MEDIA_DIR.
   */
  MEDIA_DIR: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  ADMIN_USERNAME: z.string().min(1).default("admin"),
  ADMIN_PASSWORD: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  SESSION_TTL_HOURS: z.coerce.number().positive().default(12),
  TRUST_PROXY: trustProxy,
  /** Cookies with Secure (and HSTS): on by default when the server itself serves HTTPS (see loadConfig). */
  COOKIE_SECURE: flag,
  /**
   * Serve HTTPS (phone cameras need a secure context on any address but localhost). Without
   * HTTPS_CERT/HTTPS_KEY a self-signed certificate is generated on the first start and kept in
   * DATA_DIR/https. Setting HTTPS_CERT and HTTPS_KEY (PEM files) turns HTTPS on as well.
   */
  HTTPS: flag,
  HTTPS_CERT: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  HTTPS_KEY: z
    .string()
    .optional()
    .transform((v) => (v ? v : undefined)),
  /** The built client to serve (tests point this at their own build). */
  CLIENT_DIR: z
    .string()
    .min(1)
    .default(join(projectRoot, "dist", "client")),
  /** The shop's currency (ISO 4217 code): prices and costs are shown in it. Only display: amounts are stored as cents. */
  CURRENCY: z
    .string()
    .trim()
    .toUpperCase()
    .default(CURRENCY_DEFAULT)
    .refine(isCurrency, "expected an ISO 4217 currency code such as USD, EUR or GBP"),
  /**
   * The shop's time zone (an IANA name such as Europe/Berlin): every "day" in reports and their
   * CSVs is a day there. Default: the server's own zone.
   */
  TIMEZONE: z.preprocess(
    (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
    z
      .string()
      .trim()
      .default(() => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC")
      .refine(isTimeZone, "expected an IANA time zone name such as Europe/Berlin or America/New_York"),
  ),
  /** When feeds with a URL are fetched each day (HH:MM, 24-hour, in TIMEZONE). */
  PRICE_FEEDS_AT: z
    .string()
    .trim()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "expected a time of day as HH:MM, such as 06:00")
    .default("06:00"),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** How log lines look: `pretty` (readable lines), `json` (one object a line, for production), or `auto`: pretty on a terminal only. */
  LOG_FORMAT: z.enum(["auto", "json", "pretty"]).default("auto"),
  /**
   * Failed sign-ins of one username (from any address) within LOGIN_WINDOW_MINUTES before it is
   * locked for addresses that have failed too (429); an address with no failures still gets in.
   */
  LOGIN_MAX_FAILURES: z.coerce.number().int().positive().default(10),
  /** Failed sign-ins from one address (any usernames) within LOGIN_WINDOW_MINUTES before it gets 429. */
  LOGIN_MAX_FAILURES_PER_ADDRESS: z.coerce.number().int().positive().default(20),
  LOGIN_WINDOW_MINUTES: z.coerce.number().positive().default(15),
  /** How long a process trusts a session it validated before asking the database again (tests change it). */
  SESSION_CACHE_MS: z.coerce.number().int().min(0).default(5_000),
  /** Requests one API token may make a minute, per server process (429 beyond, with Retry-After). */
  API_TOKEN_RATE_LIMIT: z.coerce.number().int().positive().default(600),
  /** A socket that has not authenticated within this time is dropped (10 s; tests shorten it). */
  SOCKET_AUTH_TIMEOUT_MS: z.coerce.number().int().positive().default(SOCKET_AUTH_TIMEOUT_MS),
  /** Rows an import batch (one short transaction) writes at most; fewer when batches take over 100 ms. */
  IMPORT_BATCH_ROWS: z.coerce.number().int().min(1).max(5_000).default(1_000),
  /** How long an import's runner holds it without writing a batch before another process (or the next start) takes it over. */
  IMPORT_LEASE_SECONDS: z.coerce.number().positive().default(15),
  /** A webhook attempt without a 2xx answer in this time has failed. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /**
   * Waits before each next attempt of a failed webhook delivery, in milliseconds, comma-separated;
   * the last one repeats (5 s, 30 s, 2 min, 10 min, 1 h, then hourly). Tests shorten them.
   */
  WEBHOOK_RETRY_DELAYS_MS: z
    .string()
    .default("5000,30000,120000,600000,3600000")
    .transform((raw, ctx) => {
      const delays = raw.split(",").map((d) => Number(d.trim()));
      if (delays.length === 0 || delays.some((d) => !Number.isInteger(d) || d < 0)) {
        ctx.addIssue({ code: "custom", message: "expected comma-separated whole numbers of milliseconds" });
        return z.NEVER;
      }
      return delays;
    }),
  /** A delivery still failing this long after its change has failed, and an endpoint failing this long is disabled (24 h). */
  WEBHOOK_GIVE_UP_MS: z.coerce.number().int().positive().default(86_400_000),
  /** How often each server process looks for due webhook deliveries without being told (a commit here wakes it at once). */
  WEBHOOK_POLL_MS: z.coerce.number().int().positive().default(1_000),
  /** Webhook attempts under way at once in one server process. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  /**
   * Webhook targets allowed although they are on this computer, the shop's network or another
   * address refused by default (modules/webhooks/webhook-targets.ts): host names and CIDR ranges.
   */
  WEBHOOK_ALLOWED_HOSTS: allowedHosts,
});

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = configSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join(".")}: ${i.message}`);
    throw new Error(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const config = parsed.data;
  const https = config.HTTPS || config.HTTPS_CERT !== undefined || config.HTTPS_KEY !== undefined;
  // A server that serves HTTPS itself marks its cookies Secure unless told otherwise.
  const cookieSecure = env.COOKIE_SECURE === undefined || env.COOKIE_SECURE === "" ? config.COOKIE_SECURE || https : config.COOKIE_SECURE;
  return { ...config, HTTPS: https, COOKIE_SECURE: cookieSecure };
}

/** The folder product photos are stored in: MEDIA_DIR, or DATA_DIR/media. */
export function mediaDirOf(config: Pick<Config, "MEDIA_DIR" | "DATA_DIR">): string {
  return config.MEDIA_DIR ?? join(config.DATA_DIR, "media");
}
