import { type Config, configSchema } from "../config.js";

/**
 * Defaults for tests and benchmarks: everything from the schema (no environment read), quiet, overridable.
 * The daily price fetch is set to the day's last minute: with the default (06:00), the schedule's
 * first look, 2 s after start-up, fetched a feed a test had just made with a URL at the same time
 * as the test's own run, so the feed's server was asked twice. Tests of the schedule set their own.
 */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), LOG_LEVEL: "silent", PRICE_FEEDS_AT: "23:59", ...overrides };
}
