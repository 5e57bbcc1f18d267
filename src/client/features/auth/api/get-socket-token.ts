import { apiFetch } from "../../../lib/http";

/** GET /api/auth/socket-token: a single-use token for the live connection. */
export async function getSocketToken(): Promise<string> {
  const body = await apiFetch<{ token: string }>("/api/auth/socket-token");
  if (!body?.token) throw new Error("No socket token in the answer");
  return body.token;
}
