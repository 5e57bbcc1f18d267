import type { Socket } from "socket.io-client";
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

/**
 * A socket to this host (same origin, path /socket.io); call connect() to open it. The client
 * library loads when the first socket is made, not with the first screen (it renders without it).
 */
export async function createSocket(): Promise<AppSocket> {
  const { io } = await import("socket.io-client");
  return io({ ...SOCKET_OPTIONS, transports: [...SOCKET_OPTIONS.transports] });
}
