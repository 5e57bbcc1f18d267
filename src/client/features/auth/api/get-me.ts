import type { User } from "../../../../contract/users";
import { EARLY_PATHS } from "../../../lib/early-requests";
import { ApiError, apiFetch } from "../../../lib/http";

/**
 * GET /api/auth/me: the signed-in user, or null when there is none (401). Any other failure (the
 * server or its database briefly unavailable, no network) is logged and thrown: a first check
 * then leaves the user signed out, and a later re-check keeps the user signed in as they were
 * instead of signing them out because of an outage.
 */
export async function getMe(signal?: AbortSignal): Promise<User | null> {
  try {
    // A returning user's first check was sent from the page's head (lib/early-requests.ts).
    const body = await apiFetch<{ user: User }>(EARLY_PATHS.me, { signal, early: true });
    return body.user ?? null;
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return null;
    console.error("Failed to check the current user", err);
    throw err;
  }
}
