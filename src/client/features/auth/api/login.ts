import type { LoginBody } from "../../../../contract/auth";
import type { User } from "../../../../contract/users";
import { apiFetch } from "../../../lib/http";

/** POST /api/auth/login; the user is read from the response field `user`. */
export async function login(body: LoginBody): Promise<User> {
  const res = await apiFetch<{ success?: boolean; user?: User; error?: string }>("/api/auth/login", {
    method: "POST",
    body,
    // A 401 here is a wrong password, not a session that ended.
    anonymous: true,
  });
  if (!res?.user) throw new Error(res?.error || "Login failed");
  return res.user;
}
