import { type Config, configSchema } from "../config.js";

/** Defaults for tests and benchmarks: everything from the schema (no environment read), quiet, overridable. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  return { ...configSchema.parse({}), LOG_LEVEL: "silent", ...overrides };
}
