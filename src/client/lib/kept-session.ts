import { type Permissions, resolvePermissions } from "../../contract/permissions";
import type { User } from "../../contract/users";

/**
 * Who was signed in on this device, kept until sign-out or a 401 (features/auth writes it after
 * each session check): when the server cannot be reached at start-up (the streamer app opened
 * from the home screen, offline), the app opens for that user instead of the login screen, and
 * the page's head (early/early-catalogue.ts) sends a returning user's first requests. No secret
 * is kept: the session itself stays in its HttpOnly cookie, and the server decides once it answers.
 */
const SESSION_KEY = "blez-signed-in";

export interface KeptSession {
  user: User;
  permissions?: Partial<Permissions>;
}

export function keptSession(): KeptSession | null {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    return raw ? (JSON.parse(raw) as KeptSession) : null;
  } catch {
    return null;
  }
}

/** The user this device last saw signed in and their permissions (not a session check: the server decides). */
export function rememberedSession(): { user: User; permissions: Permissions } | null {
  const kept = keptSession();
  return kept?.user ? { user: kept.user, permissions: resolvePermissions(kept.user.role, kept.permissions) } : null;
}

export function keepSession(session: KeptSession | null): void {
  try {
    if (session) localStorage.setItem(SESSION_KEY, JSON.stringify(session));
    else localStorage.removeItem(SESSION_KEY);
  } catch {
    // storage unavailable: no offline start
  }
}
