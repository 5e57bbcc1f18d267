import type { User } from "../../../../contract/users";
import { ApiError, apiFetch } from "../../../lib/http";

/** GET /api/auth/me: the signed-in user, or null when there is none (401). Other failures are logged. */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  try {
    const body = await apiFetch<{ user: User }>("/api/auth/me", { signal });
    return body.user ?? null;
  } catch (err) {
    if (!(err instanceof ApiError && err.status === 401)) console.error("Failed to check the current user", err);
    return null;
  }
}
