import type { Server, Socket } from "socket.io";
import type { AuthErrorReason, ClientToServerEvents, ServerToClientEvents } from "../../../contract/events.js";
import type { Actor } from "../../context.js";
import type { Sessions, SessionsEnded, SocketSession } from "./sessions.service.js";

/** What the server keeps on each socket (travels through the adapter in fetchSockets answers). */
export interface SocketData {
  user?: Actor;
  sessionId?: number;
}

/** Messages between server processes (through the socket.io PostgreSQL adapter). */
export interface SessionInterServerEvents {
  sessions_ended: (ended: SessionsEnded) => void;
  /** An API token was revoked: every process drops it from its cache (modules/tokens/api-tokens.ts). */
  api_token_revoked: (tokenId: number) => void;
}

type SessionServer = Server<ClientToServerEvents, ServerToClientEvents, SessionInterServerEvents, SocketData>;
type SessionSocket = Socket<ClientToServerEvents, ServerToClientEvents, SessionInterServerEvents, SocketData>;

export const AUTH_ERROR_MESSAGES: Record<AuthErrorReason, string> = {
  invalid_token: "Invalid or already used authentication token",
  expired_token: "Authentication token expired",
  account_disabled: "Your account has been disabled",
};

/** `authenticate` attempts one socket may make before it is dropped (each one costs a database round trip). */
export const MAX_AUTH_ATTEMPTS = 5;

/** Rooms by user and by session, so ended sessions' sockets are found in every process. */
export const userRoom = (userId: number) => `user:${userId}`;
export const sessionRoom = (sessionId: number) => `session:${sessionId}`;

/** How often this process looks for sessions of its sockets whose deadline has passed. */
const EXPIRY_CHECK_MS = 500;

export interface SessionSockets {
  /** An authenticated socket belongs to its session (and user) from now on. */
  track(socket: SessionSocket, session: SocketSession): void;
  stop(): void;
}

/**
 * Ties sockets to their sessions: an ended session (sign-out, disable, password reset, expiry)
 * closes its sockets in every process. Sessions end here or in another process (a
 * `sessions_ended` message through the adapter when `otherProcesses`); a session's deadline is
 * checked in the database only once this process's copy of it has passed (sliding expiry may
 * have moved it through another process).
 */
export function attachSessionSockets(
  io: SessionServer,
  sessions: Sessions,
  opts: { otherProcesses: boolean; onError: (err: unknown) => void },
): SessionSockets {
  /** Deadlines (ms) of the sessions with sockets in this process. */
  const deadlines = new Map<number, number>();
  const localRoomSize = (room: string) => io.of("/").adapter.rooms.get(room)?.size ?? 0;

  const closeLocal = ({ sessionIds = [], userId, reason }: SessionsEnded) => {
    for (const id of sessionIds) deadlines.delete(id);
    const rooms = [...sessionIds.map(sessionRoom), ...(userId === undefined ? [] : [userRoom(userId)])];
    if (rooms.length === 0) return;
    if (reason === "account_disabled") {
      io.local.to(rooms).emit("auth_error", { message: AUTH_ERROR_MESSAGES.account_disabled, reason: "account_disabled" });
    }
    // A namespace disconnect: the client is told ("io server disconnect") and does not reconnect on its own.
    io.local.in(rooms).disconnectSockets(false);
  };

  sessions.attachSockets({
    closeLocal,
    tellOthers: (ended) => {
      // The in-memory adapter (one process) has no other processes to tell.
      if (opts.otherProcesses) io.serverSideEmit("sessions_ended", ended);
    },
    deadlineMoved: (id, expiresAt) => {
      if (deadlines.has(id)) deadlines.set(id, expiresAt.getTime());
    },
  });
  io.on("sessions_ended", (ended) => sessions.ended(ended, false));

  let checking = false;
  const checkDeadlines = async () => {
    const now = Date.now();
    const due = [...deadlines].filter(([, deadline]) => deadline <= now).map(([id]) => id);
    if (due.length === 0 || checking) return;
    checking = true;
    try {
      const live = await sessions.liveDeadlines(due);
      for (const [id, deadline] of live) if (deadlines.has(id)) deadlines.set(id, deadline.getTime());
      const expired = due.filter((id) => !live.has(id));
      if (expired.length > 0) sessions.ended({ sessionIds: expired, reason: "expired" }, false);
    } catch (err) {
      // The database is unreachable: nothing can be confirmed; try again on the next tick.
      opts.onError(err);
    } finally {
      checking = false;
    }
  };
  const timer = setInterval(() => void checkDeadlines(), EXPIRY_CHECK_MS);
  timer.unref();

  return {
    track(socket, session) {
      socket.data.user = session.actor;
      socket.data.sessionId = session.id;
      socket.join([userRoom(session.actor.id), sessionRoom(session.id)]);
      deadlines.set(session.id, Math.max(deadlines.get(session.id) ?? 0, session.expiresAt.getTime()));
      socket.on("disconnect", () => {
        if (localRoomSize(sessionRoom(session.id)) === 0) deadlines.delete(session.id);
      });
    },
    stop() {
      clearInterval(timer);
      sessions.attachSockets(null);
    },
  };
}
