import { apiFetch } from "../../../lib/http";

/** POST /api/auth/logout (the app signs out whatever it answers: a 401 is no news). */
export async function logout(): Promise<void> {
  await apiFetch("/api/auth/logout", { method: "POST", anonymous: true });
}
