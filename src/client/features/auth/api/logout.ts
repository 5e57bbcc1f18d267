import { apiFetch } from "../../../lib/http";

/** POST /api/auth/logout. */
export async function logout(): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST" });
}
