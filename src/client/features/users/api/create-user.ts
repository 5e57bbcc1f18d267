import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { CreateUserBody, User } from "../../../../contract/users";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { replaceUser } from "./list-users";

/** POST /api/auth/users: the created user (201). */
export function createUser(body: CreateUserBody): Promise<User> {
  return apiFetch<User>("/api/auth/users", { method: "POST", body });
}

export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: (user) => {
      queryClient.setQueryData<User[]>(queryKeys.users, (old) => replaceUser(old, user));
      void queryClient.invalidateQueries({ queryKey: queryKeys.users });
    },
  });
}
