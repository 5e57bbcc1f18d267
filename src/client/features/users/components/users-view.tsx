import { RefreshCw, UserPlus, Users } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { Role } from "../../../../contract/permissions";
import type { User } from "../../../../contract/users";
import { AccessDenied } from "../../../components/ui/access-denied";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText } from "../../../lib/http";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { useUsers } from "../api/list-users";
import { useSetUserStatus } from "../api/set-user-status";
import { STATUS_UPDATE_FAILED, statusChange } from "../user-forms";
import { CreateUserDialog } from "./create-user-dialog";
import { ResetPasswordDialog } from "./reset-password-dialog";
import { UserCard } from "./user-card";

type OpenDialog = { kind: "create" } | { kind: "reset"; user: User } | null;

export interface UserManagementProps {
  viewer: { id: number; role: Role };
  canManageUsers: boolean;
}

/** The 'Manage Users' view for the signed-in user. */
export function UsersView() {
  const { user, permissions } = useAuth();
  if (!user) return null;
  return <UserManagement viewer={user} canManageUsers={permissions.canManageUsers} />;
}

/** User Management: the accounts as cards, create, enable/disable, reset password. Access Denied without canManageUsers. */
export function UserManagement({ viewer, canManageUsers }: UserManagementProps) {
  if (!canManageUsers) return <AccessDenied text="You don't have permission to manage users." />;
  return <UserManagementContent viewer={viewer} />;
}

function UserManagementContent({ viewer }: { viewer: UserManagementProps["viewer"] }) {
  const users = useUsers();
  const setStatus = useSetUserStatus();
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const pendingId = setStatus.isPending ? setStatus.variables?.id : undefined;
  // Keyboard users land back on the button that opened a dialog once it closes.
  const opener = useRef<HTMLElement | null>(null);
  const openDialog = (next: Exclude<OpenDialog, null>) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setDialog(next);
  };
  const closeDialog = () => setDialog(null);
  useEffect(() => {
    if (dialog !== null || !opener.current) return;
    const target = opener.current;
    opener.current = null;
    if (target.isConnected) target.focus();
  }, [dialog]);

  const toggleStatus = (target: User) => {
    const change = statusChange(viewer.id, target);
    if (!change.ok) {
      notify.error(change.message);
      return;
    }
    setStatus.mutate(
      { id: change.id, isActive: change.isActive },
      {
        onSuccess: (updated) => notify.success(`User ${updated.username} ${updated.is_active ? "enabled" : "disabled"}`),
        onError: (err) =>
          notify.error(STATUS_UPDATE_FAILED, {
            description: err.message && err.message !== STATUS_UPDATE_FAILED ? err.message : undefined,
          }),
      },
    );
  };

  return (
    <section aria-labelledby="users-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h1 id="users-title" className="flex items-center gap-2 text-2xl font-bold">
            <Users aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
            User Management
          </h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">Create accounts, disable or enable them and reset passwords.</p>
        </div>
        <Button onClick={() => openDialog({ kind: "create" })} className="w-full sm:w-auto">
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          Create New User
        </Button>
      </div>

      {users.isPending ? (
        <div className="flex items-center justify-center gap-3 p-8 text-gray-800 dark:text-gray-100">
          <Spinner label="Loading users" />
          <p>Loading users...</p>
        </div>
      ) : users.isError ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(users.error)}
          </p>
          <Button variant="outline" onClick={() => void users.refetch()} disabled={users.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : users.data.length === 0 ? (
        <p className="rounded-xl border border-gray-200 bg-white p-6 text-center dark:border-gray-700 dark:bg-gray-900">No users found.</p>
      ) : (
        <>
          <p className="sr-only" aria-live="polite">
            {users.data.length === 1 ? "1 user" : `${users.data.length} users`}
          </p>
          <ul aria-label="Users" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-3">
            {users.data.map((u) => (
              <li key={u.id}>
                <UserCard
                  user={u}
                  viewer={viewer}
                  statusPending={pendingId === u.id}
                  onToggleStatus={toggleStatus}
                  onResetPassword={(target) => openDialog({ kind: "reset", user: target })}
                />
              </li>
            ))}
          </ul>
        </>
      )}

      {dialog?.kind === "create" ? <CreateUserDialog actorRole={viewer.role} onClose={closeDialog} /> : null}
      {dialog?.kind === "reset" ? <ResetPasswordDialog user={dialog.user} onClose={closeDialog} /> : null}
    </section>
  );
}
