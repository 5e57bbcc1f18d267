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
  /** For an API token, the least role ("streamer"): a token is checked by its scopes, never its role. */
  role: Role;
  /** Set when the request came with `Authorization: Bearer` (plugins/auth.ts). */
  token?: ActorToken;
}

export interface ActorToken {
  id: number;
  name: string;
  scopes: readonly TokenScope[];
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
