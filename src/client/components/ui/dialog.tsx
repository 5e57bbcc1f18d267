import { X } from "lucide-react";
import { Dialog as DialogPrimitive } from "radix-ui";
import { type ReactNode, useRef, useState } from "react";
import { cn } from "../../lib/cn";

export interface DialogProps {
  /** Escape, a click outside or the close button: the caller unmounts the dialog. */
  onClose: () => void;
  title: ReactNode;
  /** Optional description; announced with the title. */
  description?: ReactNode;
  children?: ReactNode;
  /** Footer (action buttons). */
  footer?: ReactNode;
  className?: string;
  /** Width: sm (24rem), md (32rem), lg (48rem), xl (64rem), full (whole screen on phones). */
  size?: "sm" | "md" | "lg" | "xl" | "full";
  /** While a submit runs: close requests are ignored and the close button is hidden. */
  busy?: boolean;
  /** Open on the first field (default). False: on the Close button (e.g. a camera view, where a phone's keyboard would hide it). */
  focusFirstField?: boolean;
}

/** The element that opened a dialog: the focused one, or for a menu item, the button of its menu. */
function openerOf(active: Element | null): HTMLElement | null {
  if (!(active instanceof HTMLElement) || active === document.body) return null;
  const menu = active.closest('[role="menu"]');
  const trigger = menu?.getAttribute("aria-labelledby");
  return (trigger ? document.getElementById(trigger) : null) ?? active;
}

/** Focus back on the opener when it is still there, or on the element now carrying its id (a re-rendered row). */
function returnFocus(opener: HTMLElement | null): boolean {
  const target = opener?.isConnected ? opener : opener?.id ? document.getElementById(opener.id) : null;
  if (!target) return false;
  target.focus();
  return document.activeElement === target;
}

/** The first field of the body (input, select, textarea), else its first focusable element. */
const FIRST_FIELD = 'input:not([type="hidden"]):not([disabled]), select:not([disabled]), textarea:not([disabled])';
const FOCUSABLE = `${FIRST_FIELD}, button:not([disabled]), [href], [tabindex]:not([tabindex="-1"])`;
function focusFirstField(body: Element | null): boolean {
  const target = body?.querySelector<HTMLElement>(FIRST_FIELD) ?? body?.querySelector<HTMLElement>(FOCUSABLE);
  if (!target) return false;
  target.focus();
  return true;
}

const SIZES = { sm: "max-w-sm", md: "max-w-lg", lg: "max-w-3xl", xl: "max-w-5xl", full: "max-w-none sm:max-w-5xl" };

/**
 * A modal dialog, open while rendered, on Radix (focus trap, Escape, aria wiring) with our look.
 * It opens on its first field and, once closed, gives focus back to the control that opened it.
 */
export function Dialog({
  onClose,
  title,
  description,
  children,
  footer,
  className,
  size = "md",
  busy = false,
  focusFirstField: toField = true,
}: DialogProps) {
  const [opener] = useState(() => (typeof document === "undefined" ? null : openerOf(document.activeElement)));
  const bodyRef = useRef<HTMLDivElement>(null);
  return (
    <DialogPrimitive.Root
      open
      onOpenChange={(open) => {
        if (!open && !busy) onClose();
      }}
    >
      <DialogPrimitive.Portal>
        <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-black/60" />
        <DialogPrimitive.Content
          className={cn(
            "fixed left-1/2 top-1/2 z-50 flex max-h-[92dvh] w-[calc(100vw-1rem)] -translate-x-1/2 -translate-y-1/2 flex-col",
            "rounded-xl border border-gray-200 bg-white text-gray-900 shadow-xl dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50",
            SIZES[size],
            className,
          )}
          {...(description ? {} : { "aria-describedby": undefined })}
          onOpenAutoFocus={(event) => {
            // A field the body focuses itself (autoFocus) wins; else the first field, not the Close button.
            const body = bodyRef.current;
            if (body?.contains(document.activeElement) || (toField && focusFirstField(body))) event.preventDefault();
          }}
          onCloseAutoFocus={(event) => {
            if (returnFocus(opener)) event.preventDefault();
          }}
        >
          <div className="flex items-start justify-between gap-4 border-b border-gray-200 p-4 dark:border-gray-700">
            <div className="flex flex-col gap-1">
              <DialogPrimitive.Title className="text-lg font-bold">{title}</DialogPrimitive.Title>
              {description ? (
                <DialogPrimitive.Description className="text-sm text-gray-700 dark:text-gray-300">
                  {description}
                </DialogPrimitive.Description>
              ) : null}
            </div>
            {busy ? null : (
              <DialogPrimitive.Close
                aria-label="Close"
                className="rounded-md p-1.5 text-gray-700 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:text-gray-200 dark:hover:bg-gray-800"
              >
                <X aria-hidden="true" className="h-5 w-5" />
              </DialogPrimitive.Close>
            )}
          </div>
          <div ref={bodyRef} className="min-h-0 flex-1 overflow-y-auto p-4">
            {children}
          </div>
          {footer ? (
            <div className="flex flex-wrap justify-end gap-2 border-t border-gray-200 p-4 dark:border-gray-700">{footer}</div>
          ) : null}
        </DialogPrimitive.Content>
      </DialogPrimitive.Portal>
    </DialogPrimitive.Root>
  );
}
