import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { type Permissions, resolvePermissions } from "../../../../contract/permissions";
import { MESSAGES } from "../../../../contract/rules";
import type { User } from "../../../../contract/users";
import { messageOr, onSessionEnded } from "../../../lib/http";
import { keepSession, keptSession } from "../../../lib/kept-session";
import { queryKeys } from "../../../lib/query-client";
import { isRetryable } from "../../../lib/retry";
import { getMe } from "../api/get-me";
import { login as loginCall } from "../api/login";
import { logout as logoutCall } from "../api/logout";
import { verifyPermissions } from "../api/verify-permissions";

export type AuthStatus = "loading" | "signed-in" | "signed-out";

export interface AuthState {
  user: User | null;
  /** Server answer first, the spec's fallbacks for missing flags; all false when signed out. */
  permissions: Permissions;
  status: AuthStatus;
  /** Throws an Error whose message is the server's error or 'Login failed'. */
  login: (username: string, password: string) => Promise<User>;
  /** Always ends signed out, even when the server call fails. */
  logout: () => Promise<void>;
  /** The last session ended without a sign-out here (a 401: expired, signed out elsewhere, disabled): the sign-in screen says so. */
  sessionEnded: boolean;
  isSuperAdmin: boolean;
  isManager: boolean;
  isInventory: boolean;
  isStreamer: boolean;
}

export const NO_PERMISSIONS: Permissions = {
  canManageProducts: false,
  canManageUsers: false,
  canViewAudit: false,
  canUpdateQuantity: false,
};

const AuthContext = createContext<AuthState | null>(null);

/** GET /api/auth/me, or the user kept on this device while the server cannot be reached. */
async function currentUser(signal: AbortSignal): Promise<User | null> {
  try {
    const user = await getMe(signal);
    const kept = keptSession();
    if (!user) keepSession(null);
    else if (kept?.user.id !== user.id) keepSession({ user });
    else keepSession({ ...kept, user });
    return user;
  } catch (err) {
    const kept = keptSession();
    if (kept && isRetryable(err)) return kept.user;
    throw err;
  }
}

const permissionsQuery = (userId: number) => ({
  queryKey: [...queryKeys.permissions, userId] as const,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    // Null when the check failed (logged): the permissions kept on this device, else the spec's fallbacks.
    const permissions = await verifyPermissions(signal);
    const kept = keptSession();
    if (kept?.user.id !== userId) return permissions;
    if (permissions) keepSession({ ...kept, permissions });
    return permissions ?? kept.permissions ?? null;
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => currentUser(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const user = me.data ?? null;
  const perms = useQuery({ ...permissionsQuery(user?.id ?? 0), enabled: user !== null });

  const [sessionEnded, setSessionEnded] = useState(false);

  /** Drops the user and every cached answer of theirs. */
  const clearSession = useCallback(() => {
    keepSession(null);
    // Not the session check itself: it may be the call that found the session ended (it answers null).
    const others = { predicate: (q: { queryKey: readonly unknown[] }) => !(q.queryKey[0] === "auth" && q.queryKey[1] === "me") };
    void queryClient.cancelQueries(others);
    queryClient.removeQueries(others);
    queryClient.setQueryData(queryKeys.me, null);
  }, [queryClient]);

  // The one reaction to a 401, from any call of any screen (apiFetch): every screen goes to the
  // sign-in screen the same way. Taps waiting for the server stay in offline storage for this user.
  useEffect(
    () =>
      onSessionEnded(() => {
        // Nobody is signed in (the first check, a sign-in, a sign-out under way): nothing ended.
        if (!queryClient.getQueryData(queryKeys.me)) return;
        setSessionEnded(true);
        clearSession();
      }),
    [queryClient, clearSession],
  );

  const login = useCallback(
    async (username: string, password: string) => {
      let signedIn: User;
      try {
        signedIn = await loginCall({ username, password });
      } catch (err) {
        throw new Error(messageOr(err, MESSAGES.loginFailed));
      }
      keepSession({ user: signedIn });
      setSessionEnded(false);
      // Permissions first, so the shell never shows a menu that changes a moment later.
      await queryClient.fetchQuery(permissionsQuery(signedIn.id));
      queryClient.setQueryData(queryKeys.me, signedIn);
      return signedIn;
    },
    [queryClient],
  );

  const logout = useCallback(async () => {
    try {
      await logoutCall();
    } catch (err) {
      console.error("Logout failed", err);
    } finally {
      clearSession();
    }
  }, [clearSession]);

  const value = useMemo<AuthState>(() => {
    const status: AuthStatus = me.isPending ? "loading" : user === null ? "signed-out" : perms.isPending ? "loading" : "signed-in";
    const role = user?.role;
    return {
      user,
      permissions: user ? resolvePermissions(user.role, perms.data) : NO_PERMISSIONS,
      status,
      login,
      logout,
      sessionEnded,
      isSuperAdmin: role === "super_admin",
      isManager: role === "manager",
      isInventory: role === "inventory",
      isStreamer: role === "streamer",
    };
  }, [me.isPending, user, perms.isPending, perms.data, login, logout, sessionEnded]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The session: {user, permissions, status, login, logout} and role flags. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth outside AuthProvider");
  return state;
}
