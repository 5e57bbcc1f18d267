import type { Role } from "../contract/permissions.js";
import type { TokenScope } from "../contract/token-rules.js";
import type { Config } from "./config.js";
import type { Db } from "./db/client.js";
import type { EventBus } from "./events.js";

/** The signed-in user as the server knows it for one request. */
export interface Actor {
  /** The user; for an API token, the manager who created it (its audit rows carry this id). */
  id: number;
  /** The username; for an API token `token:<name>`, the name its audit rows carry. */
  username: string;
  /**
   * For an API token, its maker's role as the database had it within the last SESSION_CACHE_MS:
   * a token passes only with a scope it holds and that role allows (server/permissions.ts).
   */
  role: Role;
  /** Set when the request came with `Authorization: Bearer` (plugins/auth.ts). */
  token?: ActorToken;
}

export interface ActorToken {
  id: number;
  name: string;
  /** The scopes it was given (its maker's role may allow fewer now). */
  scopes: readonly TokenScope[];
  /** The only channels it places, cancels and reads orders in; null: every channel. */
  channels: readonly string[] | null;
}

/** What a service function needs besides its input: never the Fastify request itself. */
export interface ServiceContext {
  db: Db;
  events: EventBus;
  config: Config;
  actor: Actor;
  /** Client address, recorded in product audit entries. */
  ip: string;
}
