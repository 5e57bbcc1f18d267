import { Crown, type LucideIcon, Package, ShieldCheck, Video } from "lucide-react";
import { ROLE_LABELS, type Role } from "../../../contract/permissions";

export const ROLE_ICONS: Record<Role, LucideIcon> = {
  super_admin: Crown,
  manager: ShieldCheck,
  inventory: Package,
  streamer: Video,
};

/** Text colours with AA contrast on both themes' surfaces. */
export const ROLE_COLORS: Record<Role, string> = {
  super_admin: "text-purple-700 dark:text-purple-300",
  manager: "text-blue-700 dark:text-blue-300",
  inventory: "text-green-700 dark:text-green-300",
  streamer: "text-orange-700 dark:text-orange-300",
};

export function RoleLabel({ role, className }: { role: Role; className?: string }) {
  const Icon = ROLE_ICONS[role];
  return (
    <span className={`inline-flex items-center gap-1 font-medium ${ROLE_COLORS[role]} ${className ?? ""}`}>
      <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
      {ROLE_LABELS[role]}
    </span>
  );
}
