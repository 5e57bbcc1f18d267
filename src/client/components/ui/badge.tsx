import type { HTMLAttributes } from "react";
import { cn } from "../../lib/cn";

export type BadgeVariant = "neutral" | "info" | "success" | "warning" | "danger";

const VARIANTS: Record<BadgeVariant, string> = {
  neutral: "bg-gray-200 text-gray-900 dark:bg-gray-700 dark:text-gray-50",
  info: "bg-blue-100 text-blue-900 dark:bg-blue-950 dark:text-blue-100",
  success: "bg-green-100 text-green-900 dark:bg-green-950 dark:text-green-100",
  warning: "bg-amber-100 text-amber-900 dark:bg-amber-950 dark:text-amber-100",
  danger: "bg-red-100 text-red-900 dark:bg-red-950 dark:text-red-100",
};

export interface BadgeProps extends HTMLAttributes<HTMLSpanElement> {
  variant?: BadgeVariant;
}

export function Badge({ variant = "neutral", className, ...props }: BadgeProps) {
  return (
    <span
      className={cn("inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold", VARIANTS[variant], className)}
      {...props}
    />
  );
}
