// `npm start` runs the built server through this supervisor: if the server process dies (a crash,
// an out-of-memory kill, a `kill -9`), it is started again, so the shop stays up. It logs why each
// time, and gives up (exit 1) only after repeated crashes in a short time, when starting again
// would not help. Asked to stop (SIGINT, SIGTERM), it passes the signal on and exits with the server.
//
//   node scripts/supervise.mjs [node arguments and the server's script]
//
// Without arguments it runs `--enable-source-maps dist/server/main.mjs`. Under systemd or a
// container platform, which restart the process themselves, run the server directly instead
// (docs/operations.md).
import { spawn } from "node:child_process";
import { serverEnv } from "./server-env.mjs";

/** The crashes within CRASH_WINDOW_MS that make it give up. */
const MAX_CRASHES = Number(process.env.SUPERVISOR_MAX_CRASHES) || 5;
const CRASH_WINDOW_MS = Number(process.env.SUPERVISOR_CRASH_WINDOW_MS) || 60_000;
/** A pause before each start again: a server that dies at once does not spin the machine. */
const RESTART_DELAY_MS = Number(process.env.SUPERVISOR_RESTART_DELAY_MS) || 200;
/** Starts again in a row that end before the server serves (a restart waits up to 15 s for the data folder). */
const MAX_FAILED_STARTS = MAX_CRASHES;

const serverArgs = process.argv.length > 2 ? process.argv.slice(2) : ["--enable-source-maps", "dist/server/main.mjs"];

const log = (message) => console.error(`[supervisor] ${new Date().toISOString()} ${message}`);

let server; // the running server process
let stopping = null; // the signal that asked us to stop
let restartTimer;
let everServed = false;
let failedStarts = 0;
const crashes = []; // when each recent crash happened

function start() {
  // The server writes to this process's own stdout: on a terminal its log lines are readable, JSON elsewhere (src/server/logging.ts).
  const child = spawn(process.execPath, serverArgs, { stdio: ["inherit", "inherit", "inherit", "ipc"], env: serverEnv() });
  server = child;
  let served = false;
  // The server says so once it listens (src/server/main.ts): from then on, a crash is one of a serving shop.
  child.on("message", (message) => {
    if (message?.ready !== true) return;
    served = everServed = true;
    failedStarts = 0;
  });
  child.on("error", (err) => log(`The server could not be started: ${err.message}`));
  child.on("exit", (code, signal) => {
    server = undefined;
    const how = signal ? `was killed by signal ${signal}` : `exited with code ${code}`;
    if (stopping) {
      log(`The server (process ${child.pid}) ${how} after ${stopping}.`);
      process.exit(signal ? 0 : (code ?? 0));
    }
    if (code === 0 && !signal) {
      log(`The server (process ${child.pid}) exited on its own with code 0: stopping too.`);
      process.exit(0);
    }
    if (!everServed) {
      // Never served at all: a setting, a port or a data folder in use (the server's message above says which).
      log(`The server (process ${child.pid}) ${how} before it started serving: not starting it again.`);
      process.exit(code || 1);
    }
    const now = Date.now();
    crashes.push(now);
    while (crashes.length > 0 && (crashes[0] ?? now) <= now - CRASH_WINDOW_MS) crashes.shift();
    if (!served) failedStarts += 1;
    if (crashes.length >= MAX_CRASHES || failedStarts >= MAX_FAILED_STARTS) {
      const why =
        failedStarts >= MAX_FAILED_STARTS
          ? `it failed to start ${failedStarts} times in a row`
          : `it crashed ${crashes.length} times within ${Math.round(CRASH_WINDOW_MS / 1000)} s`;
      log(`The server (process ${child.pid}) ${how}; ${why}: giving up. The messages above say why it ended.`);
      process.exit(1);
    }
    log(
      `The server (process ${child.pid}) ${how}; starting it again in ${RESTART_DELAY_MS} ms ` +
        `(crash ${crashes.length} of ${MAX_CRASHES} allowed within ${Math.round(CRASH_WINDOW_MS / 1000)} s).`,
    );
    restartTimer = setTimeout(() => {
      restartTimer = undefined;
      start();
      log(`Started the server again (process ${server?.pid}).`);
    }, RESTART_DELAY_MS);
  });
  return child;
}

for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    stopping ??= signal;
    if (restartTimer) {
      // Between a crash and the next start: nothing runs, nothing to wait for.
      clearTimeout(restartTimer);
      log(`Stopped by ${signal} before the server started again.`);
      process.exit(0);
    }
    // A Ctrl-C reaches the server too (the whole process group): it shuts down once, whoever tells it.
    server?.kill(signal);
  });
}

const first = start();
log(`Started the server (process ${first.pid}); it is started again if it crashes.`);
