import { createRequire } from "node:module";
import type { FastifyLoggerOptions } from "fastify";
import type PinoPretty from "pino-pretty";
import type { Config } from "./config.js";

/**
 * pino-pretty, loaded only when lines are for a person at a terminal: about 1 MB of heap that a
 * server logging JSON (a journal, a pipe) would hold for nothing (issue 42). Synchronous, as the
 * logger is made before the app is.
 */
const loadPretty = (): typeof PinoPretty => createRequire(import.meta.url)("pino-pretty");

/** JSON lines for a journal or a log collector, or readable lines for a person at a terminal. */
export type LogFormat = "json" | "pretty";

/** LOG_FORMAT, with `auto` read as pretty on a terminal and JSON anywhere else (a pipe, a file, systemd's journal). */
export function logFormat(setting: Config["LOG_FORMAT"], stdoutIsTTY: boolean): LogFormat {
  if (setting !== "auto") return setting;
  return stdoutIsTTY ? "pretty" : "json";
}

/**
 * Where Fastify's logger writes: pino's own JSON on stdout, or pino-pretty. Pretty is a stream in
 * this thread, not a transport (a worker thread): written at once (`sync`), its lines keep their
 * order with the start banner and the first administrator's credentials, which go to stdout
 * directly, and none is lost when the process exits. Under `npm start` the server inherits the
 * supervisor's stdout, so the terminal check is about the terminal the shop started it from.
 */
export function logDestination(
  config: Pick<Config, "LOG_FORMAT">,
  stdoutIsTTY = process.stdout.isTTY === true,
): Pick<FastifyLoggerOptions, "stream"> {
  if (logFormat(config.LOG_FORMAT, stdoutIsTTY) === "json") return {};
  return { stream: loadPretty()({ sync: true, translateTime: "SYS:yyyy-mm-dd HH:MM:ss", ignore: "pid,hostname" }) };
}
