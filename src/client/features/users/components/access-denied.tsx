import { ShieldX } from "lucide-react";

export const ACCESS_DENIED_TITLE = "Access Denied";
export const ACCESS_DENIED_TEXT = "You don't have permission to manage users.";

/** Shown in place of the users view to anyone without canManageUsers. */
export function AccessDenied() {
  return (
    <section
      aria-labelledby="users-access-denied"
      className="mx-auto mt-8 flex max-w-md flex-col items-center gap-3 rounded-xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900"
    >
      <ShieldX aria-hidden="true" className="h-10 w-10 text-red-700 dark:text-red-300" />
      <h1 id="users-access-denied" className="text-xl font-bold">
        {ACCESS_DENIED_TITLE}
      </h1>
      <p role="alert" className="text-gray-800 dark:text-gray-100">
        {ACCESS_DENIED_TEXT}
      </p>
    </section>
  );
}
