import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";

/** socket.io on the same server (to be built): tokens, presence, inventory_update after commit. */
export const realtimePlugin = fp(async (_app: FastifyInstance) => {});
