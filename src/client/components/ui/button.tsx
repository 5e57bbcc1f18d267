import type { ButtonHTMLAttributes, Ref } from "react";
import { cn } from "../../lib/cn";

export type ButtonVariant = "primary" | "secondary" | "success" | "danger" | "warning" | "ghost" | "outline";
export type ButtonSize = "sm" | "md" | "lg" | "xl" | "tap" | "icon";

const VARIANTS: Record<ButtonVariant, string> = {
  primary: "bg-blue-700 text-white hover:bg-blue-800 dark:bg-blue-600 dark:hover:bg-blue-700",
  secondary: "bg-gray-200 text-gray-900 hover:bg-gray-300 dark:bg-gray-700 dark:text-gray-50 dark:hover:bg-gray-600",
  success: "bg-green-700 text-white hover:bg-green-800 dark:bg-green-700 dark:hover:bg-green-800",
  danger: "bg-red-700 text-white hover:bg-red-800 dark:bg-red-700 dark:hover:bg-red-600",
  warning: "bg-amber-500 text-gray-950 hover:bg-amber-400",
  ghost: "bg-transparent text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-800",
  outline:
    "border border-gray-400 bg-white text-gray-900 hover:bg-gray-50 dark:border-gray-500 dark:bg-gray-900 dark:text-gray-50 dark:hover:bg-gray-800",
};

const SIZES: Record<ButtonSize, string> = {
  sm: "h-8 px-3 text-sm gap-1.5",
  md: "h-10 px-4 text-sm gap-2",
  lg: "h-12 px-5 text-base gap-2",
  xl: "h-16 px-6 text-xl gap-3",
  /** Big thumb targets for phones (SOLD/ADD). */
  tap: "h-16 px-3 text-lg sm:text-xl gap-2 whitespace-nowrap",
  icon: "h-10 w-10 p-0",
};

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  ref?: Ref<HTMLButtonElement>;
}

/** A button; `type` defaults to "button" so it never submits a form by accident. */
export function Button({ variant = "primary", size = "md", className, type = "button", ref, ...props }: ButtonProps) {
  return (
    <button
      ref={ref}
      type={type}
      className={cn(
        "inline-flex select-none items-center justify-center rounded-lg font-semibold transition-colors",
        "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 dark:focus-visible:outline-blue-400",
        "disabled:cursor-not-allowed disabled:opacity-50 touch-manipulation",
        VARIANTS[variant],
        SIZES[size],
        className,
      )}
      {...props}
    />
  );
}
