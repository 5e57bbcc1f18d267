// The environment the server process starts with, wherever something starts it for a shop or a
// measurement: `npm start` (scripts/supervise.mjs) and the benchmarks (bench/busy-shop/servers.ts).
// Run directly (systemd, a container), set the same (docs/operations.md).

/**
 * glibc's malloc gives each thread that allocates an arena of its own (the thread pool compresses
 * the catalogue list, writes files; V8's helpers collect garbage), and each keeps what was freed in
 * it. Two arenas: about 50 MB less RSS under load with 100,000 products (issue 42,
 * bench/hot-paths/README.md), no slower. A value already set wins.
 */
const SERVER_ENV = { MALLOC_ARENA_MAX: "2" };

/** `env` with SERVER_ENV's settings where it has none of its own. */
export function serverEnv(env = process.env) {
  return { ...SERVER_ENV, ...env };
}
