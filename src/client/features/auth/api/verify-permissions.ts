import type { Permissions } from "../../../../contract/permissions";
import { EARLY_PATHS } from "../../../lib/early-requests";
import { apiFetch } from "../../../lib/http";

/** GET /api/auth/verify-permissions; null (logged) when it fails, so the spec's fallbacks apply. */
export async function verifyPermissions(signal?: AbortSignal): Promise<Partial<Permissions> | null> {
  try {
    return await apiFetch<Partial<Permissions>>(EARLY_PATHS.permissions, { signal, early: true });
  } catch (err) {
    console.error("Failed to verify permissions", err);
    return null;
  }
}
