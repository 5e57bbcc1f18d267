import fastifyRateLimit, { type FastifyRateLimitStore, normalizeIP } from "@fastify/rate-limit";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { LoginBody } from "../../../contract/auth.js";
import { tooManyRequests } from "../../app-error.js";
import type { Db } from "../../db/client.js";
import { countHit, deleteEndedWindows, readHits, uncountHit } from "./rate-limits.repo.js";

export const TOO_MANY_ATTEMPTS = "Too many failed login attempts. Please try again later.";
/** Ended windows are deleted on roughly one attempt in this many. */
const CLEANUP_ONE_IN = 50;

/** One sign-in attempt, counted as a failure until it is known not to be one. */
export interface LoginAttempt {
  /** The password was right: the attempt does not count (successful sign-ins are never limited). */
  notAFailure(): Promise<void>;
}

/** Starts an attempt for the request's address and username: 429 when it may not be tried now. */
export type BeginLoginAttempt = () => Promise<LoginAttempt>;

/** @fastify/rate-limit's store, on the database: every server process counts the same attempts. */
function databaseStore(db: Db) {
  return class DatabaseRateLimitStore implements FastifyRateLimitStore {
    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      countHit(db, key, timeWindow).then(
        (r) => callback(null, { current: r.hits, ttl: r.ttlMs }),
        (err: Error) => callback(err),
      );
    }
    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      readHits(db, key, timeWindow).then(
        (r) => callback(null, { current: r.hits, ttl: r.ttlMs }),
        (err: Error) => callback(err),
      );
    }
    child() {
      return this;
    }
  };
}

/**
 * The login throttle, on @fastify/rate-limit with its counters in the database:
 * - per address (IPv6 by /64), across all usernames: LOGIN_MAX_FAILURES_PER_ADDRESS failures in
 *   the window, then every attempt from there is refused (password spraying);
 * - per username, across all addresses: after LOGIN_MAX_FAILURES failures the username is
 *   locked, but only for addresses that have failed in the window: the owner signing in from an
 *   address with no failures still gets in, so nobody can lock the real user out from afar.
 * An attempt is counted before the password is checked (concurrent guesses cannot slip past the
 * limit) and taken back when the password was right. Refused attempts cost no password hash.
 */
export async function loginThrottle(app: FastifyInstance): Promise<(request: FastifyRequest<{ Body: LoginBody }>) => BeginLoginAttempt> {
  const { db, config } = app;
  await app.register(fastifyRateLimit, { global: false, store: databaseStore(db), skipOnError: false });
  const timeWindow = config.LOGIN_WINDOW_MINUTES * 60_000;
  const addressKey = (request: FastifyRequest) => `login-address:${normalizeIP(request.ip)}`;
  const usernameKey = (request: FastifyRequest) => `login-user:${(request.body as LoginBody).username.trim().toLowerCase()}`;
  const byAddress = app.createRateLimit({ max: config.LOGIN_MAX_FAILURES_PER_ADDRESS, timeWindow, keyGenerator: addressKey });
  const byUsername = app.createRateLimit({ max: config.LOGIN_MAX_FAILURES, timeWindow, keyGenerator: usernameKey });

  return (request) => async () => {
    if (Math.random() * CLEANUP_ONE_IN < 1) await deleteEndedWindows(db, timeWindow);
    const address = await byAddress(request);
    if (address.isAllowed) throw new Error("the login throttle has no allow-list");
    const refuse = () => tooManyRequests(TOO_MANY_ATTEMPTS, { "retry-after": String(address.ttlInSeconds) });
    if (address.isExceeded) throw refuse();
    const username = await byUsername(request);
    if (username.isAllowed) throw new Error("the login throttle has no allow-list");
    // This attempt is the address's only one in the window: it passes a locked username.
    const addressFailedBefore = address.max - address.remaining > 1;
    if (username.isExceeded && addressFailedBefore) throw refuse();
    return {
      notAFailure: async () => {
        await uncountHit(db, address.key);
        await uncountHit(db, username.key);
      },
    };
  };
}
