import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/http";
import { recheckSessionOn401 } from "./list-users";

/** PUT /api/auth/users/{id}/password: `{success: true}`; the user's sessions end on the server. */
export function resetPassword(id: number, newPassword: string): Promise<{ success: boolean }> {
  return apiFetch<{ success: boolean }>(`/api/auth/users/${id}/password`, { method: "PUT", body: { newPassword } });
}

export function useResetPassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, newPassword }: { id: number; newPassword: string }) => resetPassword(id, newPassword),
    onError: (err) => recheckSessionOn401(queryClient, err),
  });
}
