import type { User } from "../../../contract/users.js";
import type { UserRow } from "./users.repo.js";

/** The API shape of a user: never the password hash. */
export function toUser(row: UserRow): User {
  return {
    id: row.id,
    username: row.username,
    role: row.role,
    is_active: row.isActive,
    created_at: row.createdAt.toISOString(),
  };
}
