import type { FastifyReply, FastifyRequest } from "fastify";
import type { Config } from "../../config.js";

export const SESSION_COOKIE = "blez_session";

/** The session token the request's cookie carries, parsed only here (the cookie plugin parses nothing by itself). */
export function sessionTokenOf(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  const token = request.server.parseCookie(header)[SESSION_COOKIE];
  return token ? token : undefined;
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure behind HTTPS; it lives as long as an idle session. */
export function setSessionCookie(reply: FastifyReply, config: Pick<Config, "COOKIE_SECURE">, token: string, ttlMs: number) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: config.COOKIE_SECURE,
    maxAge: Math.floor(ttlMs / 1000),
  });
}

export function clearSessionCookie(reply: FastifyReply, config: Pick<Config, "COOKIE_SECURE">) {
  reply.clearCookie(SESSION_COOKIE, { path: "/", httpOnly: true, sameSite: "lax", secure: config.COOKIE_SECURE });
}
