import { CalendarDays, CircleCheck, CircleSlash, KeyRound, Lock, Power, PowerOff, UserRound } from "lucide-react";
import { canTouchRole, type Role } from "../../../../contract/permissions";
import type { User } from "../../../../contract/users";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { cn } from "../../../lib/cn";
import { RoleLabel } from "../../auth";
import { formatShortDate } from "../format-date";

export const OWN_ACCOUNT_NOTE = "This is your account";
export const PROTECTED_NOTE = "This account is protected and can only be modified by other super administrators.";

export interface UserCardProps {
  user: User;
  viewer: { id: number; role: Role };
  /** True while this user's status change is on its way. */
  statusPending?: boolean;
  onToggleStatus: (user: User) => void;
  onResetPassword: (user: User) => void;
}

/** One account: name, role, active state, creation date, and the actions the viewer may take. */
export function UserCard({ user, viewer, statusPending = false, onToggleStatus, onResetPassword }: UserCardProps) {
  const own = user.id === viewer.id;
  const isProtected = user.role === "super_admin";
  const mayModify = !own && canTouchRole(viewer.role, user.role);
  const headingId = `user-${user.id}-name`;
  const created = formatShortDate(user.created_at);
  const statusText = statusPending ? (user.is_active ? "Disabling..." : "Enabling...") : user.is_active ? "Disable" : "Enable";

  return (
    <Card
      role="article"
      aria-labelledby={headingId}
      data-testid="user-card"
      data-username={user.username}
      className={cn("flex h-full flex-col gap-3 p-4", !user.is_active && "border-dashed bg-gray-50 dark:bg-gray-900/60")}
    >
      <div className="flex items-start justify-between gap-2">
        <h2 id={headingId} className="flex min-w-0 items-center gap-2 text-lg font-bold leading-tight">
          <UserRound aria-hidden="true" className="h-5 w-5 shrink-0 text-gray-600 dark:text-gray-300" />
          <span className="break-all">{user.username}</span>
        </h2>
        {isProtected ? (
          <Badge variant="info" className="shrink-0">
            <Lock aria-hidden="true" className="h-3.5 w-3.5" />
            Protected
          </Badge>
        ) : null}
      </div>

      <dl className="grid grid-cols-[auto_1fr] items-center gap-x-3 gap-y-1.5 text-sm">
        <dt className="text-gray-700 dark:text-gray-300">Role</dt>
        <dd>
          <RoleLabel role={user.role} />
        </dd>
        <dt className="text-gray-700 dark:text-gray-300">Status</dt>
        <dd>
          {user.is_active ? (
            <Badge variant="success">
              <CircleCheck aria-hidden="true" className="h-3.5 w-3.5" />
              Active
            </Badge>
          ) : (
            <Badge variant="danger">
              <CircleSlash aria-hidden="true" className="h-3.5 w-3.5" />
              Disabled
            </Badge>
          )}
        </dd>
        <dt className="text-gray-700 dark:text-gray-300">Created</dt>
        <dd className="flex items-center gap-1.5">
          <CalendarDays aria-hidden="true" className="h-4 w-4 text-gray-600 dark:text-gray-300" />
          <time dateTime={user.created_at}>{created}</time>
        </dd>
      </dl>

      <div className="mt-auto border-t border-gray-200 pt-3 dark:border-gray-700">
        {own ? (
          <p className="text-sm font-medium text-blue-800 dark:text-blue-200">{OWN_ACCOUNT_NOTE}</p>
        ) : !mayModify ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">{PROTECTED_NOTE}</p>
        ) : (
          <div className="flex flex-wrap gap-2">
            <Button
              variant={user.is_active ? "danger" : "success"}
              size="sm"
              disabled={statusPending}
              aria-label={`${statusText} ${user.username}`}
              onClick={() => onToggleStatus(user)}
            >
              {user.is_active ? <PowerOff aria-hidden="true" className="h-4 w-4" /> : <Power aria-hidden="true" className="h-4 w-4" />}
              {statusText}
            </Button>
            <Button variant="outline" size="sm" aria-label={`Reset Password for ${user.username}`} onClick={() => onResetPassword(user)}>
              <KeyRound aria-hidden="true" className="h-4 w-4" />
              Reset Password
            </Button>
          </div>
        )}
      </div>
    </Card>
  );
}
