// The environment the server process starts with, wherever something starts it for a shop or a
// measurement: `npm start` (scripts/supervise.mjs) and the benchmarks (bench/busy-shop/servers.ts).
// Run directly (systemd, a container), set the same (docs/operations.md).

/**
 * glibc's malloc, set for a server whose memory is mostly large buffers (issue 42,
 * bench/hot-paths/README.md, "The server's memory"). A value already set wins.
 * - MALLOC_ARENA_MAX: each thread that allocates (the thread pool compresses the catalogue list,
 *   writes files; V8's helpers collect garbage) had an arena of its own, each keeping what was
 *   freed in it. Two arenas: about 50 MB less RSS under load with 100,000 products, no slower.
 * - MALLOC_MMAP_THRESHOLD_: blocks from 256 kB on (the list's compressed copies and the buffers
 *   it is written through) are mapped on their own and given back when freed. By default glibc
 *   raises that threshold to the largest block freed so far (up to 32 MB), after which such blocks
 *   come from its heap, which then stays as large as it ever was: peak RSS under load 215 to 221
 *   MiB with the default, 182 to 183 with this (the embedded database), no slower.
 */
const SERVER_ENV = { MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "262144" };

/** `env` with SERVER_ENV's settings where it has none of its own. */
export function serverEnv(env = process.env) {
  return { ...SERVER_ENV, ...env };
}
