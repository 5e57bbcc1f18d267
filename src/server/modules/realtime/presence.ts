import type { OnlineUser } from "../../../contract/events.js";
import type { Actor } from "../../context.js";
import type { SocketData } from "../sessions/session-sockets.js";

/** The room every authenticated socket joins; presence and inventory events go only there. */
export const AUTHENTICATED_ROOM = "authenticated";

export interface Presence {
  count: number;
  users: OnlineUser[];
  /** Comparable form of the set of online users (ids). */
  key: string;
}

/** Distinct users (not tabs) among the given sockets, sorted by username. */
export function presenceOf(sockets: Iterable<{ id: string; data: SocketData }>, exceptSocketId?: string): Presence {
  const byId = new Map<number, Actor>();
  for (const s of sockets) {
    const user = s.data.user;
    if (user && s.id !== exceptSocketId) byId.set(user.id, user);
  }
  const users = [...byId.values()].sort((a, b) => a.username.localeCompare(b.username) || a.id - b.id);
  return {
    count: users.length,
    users: users.map((u) => ({ username: u.username, role: u.role })),
    key: users.map((u) => u.id).join(","),
  };
}
