import { useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo } from "react";
import { type Permissions, resolvePermissions } from "../../../../contract/permissions";
import { MESSAGES } from "../../../../contract/rules";
import type { User } from "../../../../contract/users";
import { messageOr } from "../../../lib/http";
import { onUnauthorized, queryKeys } from "../../../lib/query-client";
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

const permissionsQuery = (userId: number) => ({
  queryKey: [...queryKeys.permissions, userId] as const,
  queryFn: ({ signal }: { signal: AbortSignal }) => verifyPermissions(signal),
  staleTime: Number.POSITIVE_INFINITY,
  retry: false,
});

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const me = useQuery({
    queryKey: queryKeys.me,
    queryFn: ({ signal }) => getMe(signal),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const user = me.data ?? null;
  const perms = useQuery({ ...permissionsQuery(user?.id ?? 0), enabled: user !== null });

  /** Drops the user and every cached answer of theirs. */
  const clearSession = useCallback(() => {
    void queryClient.cancelQueries();
    queryClient.removeQueries({ predicate: (q) => !(q.queryKey[0] === "auth" && q.queryKey[1] === "me") });
    queryClient.setQueryData(queryKeys.me, null);
  }, [queryClient]);

  useEffect(() => {
    onUnauthorized(clearSession);
    return () => onUnauthorized(null);
  }, [clearSession]);

  const login = useCallback(
    async (username: string, password: string) => {
      let signedIn: User;
      try {
        signedIn = await loginCall({ username, password });
      } catch (err) {
        throw new Error(messageOr(err, MESSAGES.loginFailed));
      }
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
      isSuperAdmin: role === "super_admin",
      isManager: role === "manager",
      isInventory: role === "inventory",
      isStreamer: role === "streamer",
    };
  }, [me.isPending, user, perms.isPending, perms.data, login, logout]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** The session: {user, permissions, status, login, logout} and role flags. */
export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error("useAuth outside AuthProvider");
  return state;
}
