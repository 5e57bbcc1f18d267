import { createAdapter } from "@socket.io/postgres-adapter";
import type { FastifyInstance } from "fastify";
import fp from "fastify-plugin";
import { Server, type Socket } from "socket.io";
import type { ClientToServerEvents, ServerToClientEvents } from "../../contract/events.js";
import type { Role } from "../../contract/permissions.js";
import type { ServerEvents } from "../events.js";
import { poolIdle, watchedAdapterPool } from "../modules/realtime/adapter-pool.js";
import { audienceOf, type BroadcastEvent } from "../modules/realtime/audience.js";
import { AUTHENTICATED_ROOM, type Presence, presenceOf } from "../modules/realtime/presence.js";
import {
  AUTH_ERROR_MESSAGES,
  attachSessionSockets,
  MAX_AUTH_ATTEMPTS,
  type SessionInterServerEvents,
  type SocketData,
} from "../modules/sessions/session-sockets.js";
import { SOCKET_PATH } from "../server-addresses.js";

/** Each authenticated socket is in the room of its user's role too: events go to the rooms of the roles that may read them. */
const roleRoom = (role: Role) => `role:${role}`;

export type RealtimeServer = Server<ClientToServerEvents, ServerToClientEvents, SessionInterServerEvents, SocketData>;
type AppSocket = Socket<ClientToServerEvents, ServerToClientEvents, SessionInterServerEvents, SocketData>;

declare module "fastify" {
  interface FastifyInstance {
    io: RealtimeServer;
  }
}

/**
 * Presence is recomputed on a timer as well, so that it heals after events it cannot see: a
 * server process that died (its sockets leave the count once the adapter stops hearing from it)
 * or two processes dropping the same user's last sockets at the same moment.
 */
const PRESENCE_REFRESH_MS = 10_000;
/** Clients only ever send `authenticate {token}`. */
const MAX_CLIENT_MESSAGE_BYTES = 16 * 1024;

/**
 * socket.io on the app's HTTP server (path /socket.io): token authentication (the sessions
 * module owns the tokens and closes the sockets of ended sessions), presence (`user_count`), and
 * the bus's events after commits, each only to the roles that may read it
 * (modules/realtime/audience.ts). On PostgreSQL the socket.io PostgreSQL adapter carries
 * broadcasts, presence queries and ended sessions to every server process.
 */
export const realtimePlugin = fp(async (app: FastifyInstance) => {
  const io: RealtimeServer = new Server(app.server, {
    path: SOCKET_PATH,
    serveClient: false,
    transports: ["polling", "websocket"],
    maxHttpBufferSize: MAX_CLIENT_MESSAGE_BYTES,
  });
  const pool = app.database.kind === "postgres" ? app.database.pool : undefined;
  const watched = pool ? watchedAdapterPool(pool) : undefined;
  if (pool && watched) {
    io.adapter(
      createAdapter(watched.adapterPool, {
        errorHandler: (err) => app.log.warn({ err }, "socket.io PostgreSQL adapter error"),
      }),
    );
    await watched.settled();
  }
  app.decorate("io", io);
  const sessionSockets = attachSessionSockets(io, app.sessions, {
    otherProcesses: pool !== undefined,
    onError: (err) => app.log.warn({ err }, "session expiry check failed"),
  });
  // Revoked API tokens leave every process's cache the way ended sessions do: through the adapter.
  app.apiTokens.attachOthers(pool ? (tokenId) => io.serverSideEmit("api_token_revoked", tokenId) : null);
  io.on("api_token_revoked", (tokenId) => {
    if (typeof tokenId === "number") app.apiTokens.revoked(tokenId, false);
  });

  let closing = false;
  let lastKey: string | null = null;
  // Presence computations run one at a time, so this process never sends an older count after a newer one.
  let queue: Promise<void> = Promise.resolve();
  const serially = (work: () => Promise<void>) => {
    queue = queue.then(work).catch((err) => app.log.warn({ err }, "presence update failed"));
    return queue;
  };

  /** Every authenticated socket in every process; null when some process did not answer in time. */
  async function authenticatedSockets() {
    try {
      return await io.in(AUTHENTICATED_ROOM).fetchSockets();
    } catch (err) {
      app.log.warn({ err }, "presence: a server process did not answer");
      return null;
    }
  }

  const payload = (p: Presence) => ({ count: p.count, users: p.users });
  const broadcast = (p: Presence) => {
    lastKey = p.key;
    io.to(AUTHENTICATED_ROOM).emit("user_count", payload(p));
  };

  /** A socket authenticated: everyone hears of it if its user was not online yet; the socket gets the count either way. */
  const joined = (socket: AppSocket) =>
    serially(async () => {
      const sockets = await authenticatedSockets();
      if (!sockets || closing || !socket.connected) return;
      const now = presenceOf(sockets);
      if (presenceOf(sockets, socket.id).key !== now.key) broadcast(now);
      else {
        lastKey = now.key;
        socket.emit("user_count", payload(now));
      }
    });

  /** An authenticated socket left: everyone hears of it if that was its user's last one. */
  const left = () =>
    serially(async () => {
      if (closing) return;
      const sockets = await authenticatedSockets();
      if (!sockets || closing) return;
      const now = presenceOf(sockets);
      if (now.key !== lastKey) broadcast(now);
    });

  /** Heals missed changes: each process tells its own sockets when the set differs from what it last knew. */
  const refresh = () =>
    serially(async () => {
      const local = io.of("/").adapter.rooms.get(AUTHENTICATED_ROOM);
      if (closing || !local || local.size === 0) return;
      const sockets = await authenticatedSockets();
      if (!sockets || closing) return;
      const now = presenceOf(sockets);
      if (now.key === lastKey) return;
      lastKey = now.key;
      io.local.to(AUTHENTICATED_ROOM).emit("user_count", payload(now));
    });
  const refreshTimer = setInterval(() => void refresh(), PRESENCE_REFRESH_MS);
  refreshTimer.unref();

  io.on("connection", (socket: AppSocket) => {
    let attempts = 0;
    const authTimer = setTimeout(() => {
      if (!socket.data.user) socket.disconnect(true);
    }, app.config.SOCKET_AUTH_TIMEOUT_MS);

    socket.on("authenticate", async (body) => {
      const current = socket.data.user;
      if (current) {
        // A socket's identity is fixed once authenticated; a repeat just confirms it.
        socket.emit("authenticated", { user: current });
        return;
      }
      attempts += 1;
      if (attempts > MAX_AUTH_ATTEMPTS) {
        socket.disconnect(true);
        return;
      }
      let result: Awaited<ReturnType<typeof app.sessions.authenticateSocket>>;
      try {
        result = await app.sessions.authenticateSocket(body);
      } catch (err) {
        app.log.warn({ err }, "socket authentication failed");
        result = { reason: "invalid_token" };
      }
      if (!socket.connected || closing || socket.data.user) return;
      if ("reason" in result) {
        socket.emit("auth_error", { message: AUTH_ERROR_MESSAGES[result.reason], reason: result.reason });
        return;
      }
      clearTimeout(authTimer);
      sessionSockets.track(socket, result);
      socket.join([AUTHENTICATED_ROOM, roleRoom(result.actor.role)]);
      socket.emit("authenticated", { user: result.actor });
      void joined(socket);
    });

    socket.on("disconnect", () => {
      clearTimeout(authTimer);
      if (socket.data.user) void left();
    });
  });

  // Each event to the rooms of the roles that may read it (one rule: the permission of its GET route).
  const audiences = new Map<BroadcastEvent, string[]>();
  const roomsOf = (event: BroadcastEvent) => {
    let rooms = audiences.get(event);
    if (!rooms) {
      rooms = audienceOf(event).map(roleRoom);
      audiences.set(event, rooms);
    }
    return rooms;
  };
  const adapter = io.of("/").adapter;
  // The other server processes the PostgreSQL adapter knows (by their heartbeats; a process
  // announces itself as it starts, before it serves). socket.io-adapter keeps them in `nodesMap`
  // without a synchronous accessor: where it is missing, assume there are some.
  const otherProcesses = () => {
    if (!pool) return false;
    const nodes = (adapter as unknown as { nodesMap?: Map<string, number> }).nodesMap;
    return nodes === undefined || nodes.size > 0;
  };
  // An event that no socket of this process may hear, and no other process could carry to its
  // own, is not encoded or sent at all: a tap with no screen open costs nothing more.
  const heard = (rooms: string[]) => otherProcesses() || rooms.some((room) => (adapter.rooms.get(room)?.size ?? 0) > 0);
  const to = (event: BroadcastEvent) => {
    const rooms = roomsOf(event);
    return heard(rooms) ? io.to(rooms) : undefined;
  };
  const relays: { [E in BroadcastEvent]: (...payload: ServerEvents[E]) => void } = {
    inventory_update: (e) => to("inventory_update")?.emit("inventory_update", e),
    show_update: (e) => to("show_update")?.emit("show_update", e),
    order_update: (e) => to("order_update")?.emit("order_update", e),
    low_stock: (e) => to("low_stock")?.emit("low_stock", e),
    stock_take_update: (e) => to("stock_take_update")?.emit("stock_take_update", e),
  };
  const relayed = Object.entries(relays) as Array<[BroadcastEvent, (payload: unknown) => void]>;
  for (const [event, send] of relayed) app.events.on(event, send);

  // Before the HTTP server closes: drop every connection (long-polling requests and websockets
  // would otherwise keep it open), so shutdown is prompt. Clients reconnect to whatever runs next.
  app.addHook("preClose", async () => {
    closing = true;
    clearInterval(refreshTimer);
    for (const [event, send] of relayed) app.events.off(event, send);
    app.apiTokens.attachOthers(null);
    sessionSockets.stop();
    if (pool) await announceDeparture();
    io.local.disconnectSockets(true);
    io.engine.close();
  });
  /** Tells the sockets of the other processes who is still online once this process's sockets are gone. */
  async function announceDeparture() {
    const local = [...io.of("/").sockets.keys()];
    if (local.length === 0) return;
    try {
      const sockets = await io.in(AUTHENTICATED_ROOM).timeout(1_000).fetchSockets();
      const localIds = new Set(local);
      const remaining = presenceOf(sockets.filter((s) => !localIds.has(s.id)));
      if (remaining.key !== presenceOf(sockets).key) {
        io.to(AUTHENTICATED_ROOM).except(local).emit("user_count", payload(remaining));
      }
    } catch (err) {
      app.log.warn({ err }, "presence: could not announce this process's departure");
    }
  }

  app.addHook("onClose", async () => {
    await queue;
    await watched?.settled();
    // Tells the other processes this one is gone and gives back the adapter's LISTEN connection.
    io.of("/").adapter.close();
    watched?.releaseIfHeld();
    if (pool) await poolIdle(pool);
  });
});
