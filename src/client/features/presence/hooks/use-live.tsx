import { useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useContext, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { InventoryUpdate, LowStockEvent, OnlineUser, ShowUpdate } from "../../../../contract/events";
import { queryKeys } from "../../../lib/query-client";
import { type AppSocket, createSocket, SOCKET_OPTIONS } from "../../../lib/socket";
import { publishStockTakeUpdate } from "../../../lib/stock-take-updates";
import { getSocketToken, useAuth } from "../../auth";

export const AUTH_SETUP_FAILED = "Authentication setup failed";

export interface LiveAuthError {
  message: string;
  reason: string;
}

export interface LiveState {
  /** Authenticated on the live connection: shown as Live, otherwise Offline. */
  connected: boolean;
  userCount: number;
  onlineUsers: OnlineUser[];
  authError: LiveAuthError | null;
}

const INITIAL: LiveState = { connected: false, userCount: 0, onlineUsers: [], authError: null };
const LiveContext = createContext<LiveState | null>(null);

export interface LiveProviderProps {
  children: ReactNode;
  /** Every inventory_update, the user's own included (the product store applies them). */
  onInventoryUpdate?: (update: InventoryUpdate) => void;
  /**
   * Authenticated, at first and after every reconnect: events from before (while offline, or
   * between loading data and subscribing) may have been missed.
   */
  onConnected?: () => void;
  /** A show started or ended (show_update), anyone's. */
  onShowUpdate?: (update: ShowUpdate) => void;
  /** A product reached its reorder point (low_stock: managers and super administrators only). */
  onLowStock?: (event: LowStockEvent) => void;
}

/**
 * The live connection, open only while someone is signed in: connect, fetch a socket token,
 * authenticate; presence, and live inventory events (handed on).
 */
export function LiveProvider({ children, onInventoryUpdate, onConnected, onShowUpdate, onLowStock }: LiveProviderProps) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>(INITIAL);
  const handlers = useRef({ onInventoryUpdate, onConnected, onShowUpdate, onLowStock });
  handlers.current = { onInventoryUpdate, onConnected, onShowUpdate, onLowStock };
  const userId = user?.id;

  useEffect(() => {
    if (userId === undefined) return;
    let disposed = false;
    let opened: AppSocket | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    const open = () =>
      createSocket().then(
        (socket) => {
          if (disposed) return;
          opened = socket;
          listen(socket);
          socket.connect();
        },
        (err: unknown) => {
          // Its code could not load (no network): tried again, as a lost connection is.
          console.error("Failed to load the live connection", err);
          if (!disposed) retry = setTimeout(open, SOCKET_OPTIONS.reconnectionDelayMax);
        },
      );
    void open();
    return () => {
      disposed = true;
      clearTimeout(retry);
      opened?.removeAllListeners();
      opened?.disconnect();
      setState(INITIAL);
      toast.dismiss();
    };

    function listen(socket: AppSocket) {
      let authenticatedBefore = false;
      let tokenRetries = 0;

      const authenticate = async () => {
        try {
          const token = await getSocketToken();
          if (!disposed && socket.connected) socket.emit("authenticate", { token });
        } catch (err) {
          // A 401 (the session ended) has already reached the app through apiFetch.
          console.error("Failed to get socket authentication token", err);
          if (disposed) return;
          setState((s) => ({ ...s, connected: false, authError: { message: AUTH_SETUP_FAILED, reason: "token_failed" } }));
        }
      };

      socket.on("connect", () => {
        tokenRetries = 0;
        void authenticate();
      });
      socket.on("authenticated", () => {
        setState((s) => ({ ...s, connected: true, authError: null }));
        // Products catch up in the product store; after a reconnect the other queries (session,
        // users, an open audit trail) refetch too.
        handlers.current.onConnected?.();
        if (authenticatedBefore) void queryClient.invalidateQueries();
        authenticatedBefore = true;
      });
      socket.on("auth_error", (payload) => {
        setState((s) => ({ ...s, connected: false, authError: payload }));
        if (payload.reason === "account_disabled") {
          // Ask the server: its 401 takes the app to sign-in (apiFetch), as on every screen.
          void queryClient.invalidateQueries({ queryKey: queryKeys.me });
        } else if (tokenRetries < 3) {
          tokenRetries += 1;
          void authenticate();
        }
      });
      socket.on("disconnect", (reason) => {
        setState((s) => ({ ...s, connected: false }));
        // The server ended the connection (e.g. this session was signed out elsewhere): check the
        // session (its 401 signs out through apiFetch) and reconnect, which socket.io will not do by itself.
        if (reason === "io server disconnect" && !disposed) {
          void queryClient.invalidateQueries({ queryKey: queryKeys.me });
          socket.connect();
        }
      });
      socket.on("connect_error", () => setState((s) => ({ ...s, connected: false })));
      socket.on("user_count", ({ count, users }) => setState((s) => ({ ...s, userCount: count, onlineUsers: users })));
      socket.on("inventory_update", (update) => {
        // The product store and the live notifications take it from here.
        handlers.current.onInventoryUpdate?.(update);
        // Refetches only an audit trail and a "To reorder" list on screen.
        void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
        void queryClient.invalidateQueries({ queryKey: queryKeys.reorder });
      });
      socket.on("low_stock", (event) => {
        handlers.current.onLowStock?.(event);
        void queryClient.invalidateQueries({ queryKey: queryKeys.reorder });
      });
      socket.on("show_update", (update) => {
        handlers.current.onShowUpdate?.(update);
        // The running show and the lists of shows on screen refetch.
        void queryClient.invalidateQueries({ queryKey: queryKeys.shows });
      });
      // An order placed or cancelled anywhere: the orders on screen refetch.
      socket.on("order_update", () => void queryClient.invalidateQueries({ queryKey: queryKeys.orders }));
      // Scans from any device, a session started, approved or cancelled: the stock takes' screens
      // patch or refetch what they show (lib/stock-take-updates.ts); what no screen shows is stale.
      socket.on("stock_take_update", (update) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.stockTakes, refetchType: "none" });
        publishStockTakeUpdate(update);
      });
    }
  }, [userId, queryClient]);

  return <LiveContext.Provider value={state}>{children}</LiveContext.Provider>;
}

/** Live status and presence. */
export function useLive(): LiveState {
  const value = useContext(LiveContext);
  if (!value) throw new Error("useLive outside LiveProvider");
  return value;
}
