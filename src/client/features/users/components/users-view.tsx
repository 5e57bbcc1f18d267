/** Placeholder until the user management view lands. */
export function UsersView() {
  return <h1 className="text-2xl font-bold">User Management</h1>;
}
