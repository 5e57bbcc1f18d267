import { io, type Socket } from "socket.io-client";
import type { ClientToServerEvents, ServerToClientEvents } from "../../contract/events";

export type AppSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** The live connection's options: polling then websocket, reconnecting forever (1-5 s apart), cookies sent. */
export const SOCKET_OPTIONS = {
  transports: ["polling", "websocket"],
  reconnection: true,
  reconnectionDelay: 1000,
  reconnectionDelayMax: 5000,
  randomizationFactor: 0.5,
  reconnectionAttempts: Number.POSITIVE_INFINITY,
  timeout: 20_000,
  withCredentials: true,
  autoConnect: false,
} as const;

/** A socket to this host (same origin, path /socket.io); call connect() to open it. */
export function createSocket(): AppSocket {
  return io({ ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports] });
}
