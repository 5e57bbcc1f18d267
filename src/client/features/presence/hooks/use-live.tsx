import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from "react";
import { toast } from "sonner";
import type { InventoryUpdate, OnlineUser } from "../../../../contract/events";
import type { Product } from "../../../../contract/products";
import { ApiError } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { createSocket } from "../../../lib/socket";
import { getSocketToken, useAuth } from "../../auth";
import { LIVE_TOASTER_ID } from "../../notifications/toasters";
import { describeUpdate } from "../describe-update";

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

type Listener = (update: InventoryUpdate) => void;

interface LiveContextValue extends LiveState {
  /** Subscribes to every inventory_update (own events too); returns the unsubscribe. */
  subscribe: (listener: Listener) => () => void;
}

const INITIAL: LiveState = { connected: false, userCount: 0, onlineUsers: [], authError: null };
const LiveContext = createContext<LiveContextValue | null>(null);

/** Patches cached products right away; the invalidation after it brings the full truth. */
function patchCaches(queryClient: QueryClient, update: InventoryUpdate) {
  const { id, quantity_on_hand, is_active } = update.data;
  if (id === undefined || (quantity_on_hand === undefined && is_active === undefined)) return;
  const patch = (p: Product): Product =>
    p.id === id ? { ...p, ...(quantity_on_hand !== undefined && { quantity_on_hand }), ...(is_active !== undefined && { is_active }) } : p;
  queryClient.setQueryData<unknown>(queryKeys.products, (old: unknown) =>
    Array.isArray(old) ? (old as Product[]).map((p) => (p && typeof p === "object" ? patch(p) : p)) : old,
  );
  queryClient.setQueriesData<Product | null>({ queryKey: queryKeys.productByBarcodeAll }, (old) =>
    old && typeof old === "object" ? patch(old) : old,
  );
}

function invalidateInventory(queryClient: QueryClient) {
  void queryClient.invalidateQueries({ queryKey: queryKeys.products });
  void queryClient.invalidateQueries({ queryKey: queryKeys.productByBarcodeAll });
  void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
}

/**
 * The live connection, open only while someone is signed in: connect, fetch a socket token,
 * authenticate; presence, live inventory events (cache updates + toasts for other users' changes).
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const [state, setState] = useState<LiveState>(INITIAL);
  const listeners = useRef(new Set<Listener>());
  const userId = user?.id;

  useEffect(() => {
    if (userId === undefined) return;
    const socket = createSocket();
    let disposed = false;
    let authenticatedBefore = false;
    let tokenRetries = 0;

    const authenticate = async () => {
      try {
        const token = await getSocketToken();
        if (!disposed && socket.connected) socket.emit("authenticate", { token });
      } catch (err) {
        console.error("Failed to get socket authentication token", err);
        if (disposed) return;
        setState((s) => ({ ...s, connected: false, authError: { message: AUTH_SETUP_FAILED, reason: "token_failed" } }));
        // A 401 means the session ended: re-check who is signed in (signs out).
        if (err instanceof ApiError && err.status === 401) void queryClient.invalidateQueries({ queryKey: queryKeys.me });
      }
    };

    socket.on("connect", () => {
      tokenRetries = 0;
      void authenticate();
    });
    socket.on("authenticated", () => {
      setState((s) => ({ ...s, connected: true, authError: null }));
      // After a reconnect, events may have been missed: refetch everything.
      if (authenticatedBefore) void queryClient.invalidateQueries();
      authenticatedBefore = true;
    });
    socket.on("auth_error", (payload) => {
      setState((s) => ({ ...s, connected: false, authError: payload }));
      if (payload.reason === "account_disabled") {
        void queryClient.invalidateQueries({ queryKey: queryKeys.me });
      } else if (tokenRetries < 3) {
        tokenRetries += 1;
        void authenticate();
      }
    });
    socket.on("disconnect", (reason) => {
      setState((s) => ({ ...s, connected: false }));
      // The server ended the connection (e.g. this user's password was reset): check the
      // session (signs out when it ended) and reconnect, which socket.io will not do by itself.
      if (reason === "io server disconnect" && !disposed) {
        void queryClient.invalidateQueries({ queryKey: queryKeys.me });
        socket.connect();
      }
    });
    socket.on("connect_error", () => setState((s) => ({ ...s, connected: false })));
    socket.on("user_count", ({ count, users }) => setState((s) => ({ ...s, userCount: count, onlineUsers: users })));
    socket.on("inventory_update", (update) => {
      patchCaches(queryClient, update);
      invalidateInventory(queryClient);
      if (update.userId !== userId) {
        toast(describeUpdate(update), { toasterId: LIVE_TOASTER_ID });
      }
      for (const listener of listeners.current) listener(update);
    });
    socket.connect();

    return () => {
      disposed = true;
      socket.removeAllListeners();
      socket.disconnect();
      setState(INITIAL);
      toast.dismiss();
    };
  }, [userId, queryClient]);

  const subscribe = useCallback((listener: Listener) => {
    listeners.current.add(listener);
    return () => {
      listeners.current.delete(listener);
    };
  }, []);

  const value = useMemo(() => ({ ...state, subscribe }), [state, subscribe]);
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>;
}

/** Live status, presence and the inventory event subscription. */
export function useLive(): LiveContextValue {
  const value = useContext(LiveContext);
  if (!value) throw new Error("useLive outside LiveProvider");
  return value;
}

/** Calls `listener` for every live inventory event while mounted. */
export function useInventoryUpdates(listener: Listener): void {
  const { subscribe } = useLive();
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe((u) => latest.current(u)), [subscribe]);
}
