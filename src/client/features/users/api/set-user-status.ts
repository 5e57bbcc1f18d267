import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { User } from "../../../../contract/users";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { replaceUser } from "./list-users";

/** PUT /api/auth/users/{id}/status: the updated user. */
export function setUserStatus(id: number, isActive: boolean): Promise<User> {
  return apiFetch<User>(`/api/auth/users/${id}/status`, { method: "PUT", body: { is_active: isActive } });
}

export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, isActive }: { id: number; isActive: boolean }) => setUserStatus(id, isActive),
    onSuccess: (user) => {
      queryClient.setQueryData<User[]>(queryKeys.users, (old) => replaceUser(old, user));
    },
    // Success or not, the list shows what the server now holds.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.users }),
  });
}
