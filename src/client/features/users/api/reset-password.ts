import { useMutation } from "@tanstack/react-query";
import { apiFetch } from "../../../lib/http";

/** PUT /api/auth/users/{id}/password: `{success: true}`; the user's sessions end on the server. */
export function resetPassword(id: number, newPassword: string): Promise<{ success: boolean }> {
  return apiFetch<{ success: boolean }>(`/api/auth/users/${id}/password`, { method: "PUT", body: { newPassword } });
}

export function useResetPassword() {
  return useMutation({
    mutationFn: ({ id, newPassword }: { id: number; newPassword: string }) => resetPassword(id, newPassword),
  });
}
