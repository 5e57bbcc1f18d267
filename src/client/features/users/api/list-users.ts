import { queryOptions, useQuery } from "@tanstack/react-query";
import type { User } from "../../../../contract/users";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";

/** GET /api/auth/users: every user account (needs canManageUsers). */
export function listUsers(signal?: AbortSignal): Promise<User[]> {
  return apiFetch<User[]>("/api/auth/users", { signal });
}

/** The users list query, key ["users"]. */
export const usersQuery = () =>
  queryOptions({
    queryKey: queryKeys.users,
    queryFn: ({ signal }) => listUsers(signal),
  });

export function useUsers(enabled = true) {
  return useQuery({ ...usersQuery(), enabled });
}

/** Puts a newer copy of one user into the cached list (appends it when it is new). */
export function replaceUser(list: User[] | undefined, next: User): User[] | undefined {
  if (!list) return list;
  let found = false;
  const out = list.map((u) => {
    if (u.id !== next.id) return u;
    found = true;
    return next;
  });
  return found ? out : [...out, next];
}
