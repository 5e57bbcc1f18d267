/**
 * The sign-in screen after a session ended without a sign-out on this screen (it expired, it was
 * signed out elsewhere, the account was disabled or its password reset): one text for every
 * screen. The spec has none for this; it names no reason, as a 401 does not.
 */
export const SESSION_ENDED = "Your session has ended. Please sign in again.";
