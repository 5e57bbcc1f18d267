import type { Role } from "../contract/permissions.js";
import type { Config } from "./config.js";
import type { Db } from "./db/client.js";
import type { EventBus } from "./events.js";

/** The signed-in user as the server knows it for one request. */
export interface Actor {
  id: number;
  username: string;
  role: Role;
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
