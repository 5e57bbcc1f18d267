import { History, MoreVertical, Pencil, Power, SlidersHorizontal } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { mainLandmark } from "../../../lib/main-landmark";

export interface ProductActionHandlers {
  onEdit: (product: Product) => void;
  onToggleStatus: (product: Product) => void;
  /** Opens this product's audit trail (managers). */
  onHistory?: (product: Product) => void;
  /** Opens 'Adjust Stock' (an amount with a reason, or a count). */
  onAdjust?: (product: Product) => void;
}

interface ProductActionsProps extends ProductActionHandlers {
  product: Product;
  canManageProducts: boolean;
  statusBusy?: boolean;
  /** Buttons from this width up (cards: sm; table rows: lg), a menu below it. */
  inlineFrom?: "sm" | "lg";
  /** Edit and Disable/Enable as icons below `page` widths (1680 px; table rows: the name keeps the room). */
  compact?: boolean;
  /** Render only the buttons or only the menu (the caller knows the width); both when not given, CSS shows one. */
  only?: "inline" | "menu";
}

/** The id of a product's actions menu button: focus comes back to it after a dialog (see Dialog). */
export const actionsMenuId = (product: Pick<Product, "id">) => `product-actions-${product.id}`;

// The same elements on every render: a row given another product re-renders its buttons, not their icons.
const ADJUST_ICON = <SlidersHorizontal aria-hidden="true" className="h-4 w-4 shrink-0" />;
const HISTORY_ICON = <History aria-hidden="true" className="h-4 w-4 shrink-0" />;
const EDIT_ICON = <Pencil aria-hidden="true" className="h-3.5 w-3.5" />;
const TOGGLE_ICON = <Power aria-hidden="true" className="h-3.5 w-3.5" />;
const MENU_ICON = <MoreVertical aria-hidden="true" className="h-5 w-5" />;

const itemClass =
  "flex cursor-pointer items-center gap-2 rounded-md px-2 py-2 text-sm outline-none data-[disabled]:opacity-50 data-[highlighted]:bg-gray-100 dark:data-[highlighted]:bg-gray-800";

/** A product's actions beyond quantity: buttons on wider screens, one menu on phones. */
export function ProductActions({
  product,
  canManageProducts,
  statusBusy,
  onEdit,
  onToggleStatus,
  onHistory,
  onAdjust,
  inlineFrom = "sm",
  compact = false,
  only,
}: ProductActionsProps) {
  const active = product.is_active !== false;
  const toggleLabel = active ? "Disable" : "Enable";
  const name = product.product_name;
  const inline = inlineFrom === "sm" ? "hidden sm:flex" : "hidden lg:flex";
  const menu = inlineFrom === "sm" ? "sm:hidden" : "lg:hidden";
  const text = compact ? "sr-only page:not-sr-only" : undefined;
  const textButton = compact ? "px-2 page:px-3" : undefined;
  if (!canManageProducts && !onAdjust) return null;

  return (
    <>
      {only === "menu" ? null : (
        <div className={cn("justify-end", compact ? "flex-nowrap gap-1 page:gap-1.5" : "flex-wrap gap-1.5", inline)}>
          {onAdjust ? (
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              aria-label={`Adjust stock of ${name}`}
              aria-keyshortcuts="A"
              title="Adjust stock (A)"
              disabled={!active}
              onClick={() => onAdjust(product)}
            >
              {ADJUST_ICON}
            </Button>
          ) : null}
          {canManageProducts && onHistory ? (
            <Button
              variant="ghost"
              size="sm"
              className="px-2"
              aria-label={`Audit trail of ${name}`}
              title="Audit trail"
              onClick={() => onHistory(product)}
            >
              {HISTORY_ICON}
            </Button>
          ) : null}
          {canManageProducts ? (
            <>
              <Button variant="secondary" size="sm" className={textButton} title="Edit" onClick={() => onEdit(product)}>
                {EDIT_ICON}
                <span className={text}>Edit</span>
              </Button>
              <Button
                variant={active ? "danger" : "success"}
                size="sm"
                className={textButton}
                title={toggleLabel}
                disabled={statusBusy}
                onClick={() => onToggleStatus(product)}
              >
                {TOGGLE_ICON}
                <span className={text}>{toggleLabel}</span>
              </Button>
            </>
          ) : null}
        </div>
      )}
      {only === "inline" ? null : (
        <div className={menu}>
          <DropdownMenu.Root modal={false}>
            <DropdownMenu.Trigger asChild>
              <Button id={actionsMenuId(product)} variant="outline" size="icon" aria-label={`Actions for ${name}`}>
                {MENU_ICON}
              </Button>
            </DropdownMenu.Trigger>
            {/* Inside <main>: the open menu stays within a landmark (axe region). */}
            <DropdownMenu.Portal container={mainLandmark()}>
              <DropdownMenu.Content
                align="end"
                sideOffset={4}
                className="z-40 min-w-48 rounded-xl border border-gray-200 bg-white p-1 text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50"
              >
                {onAdjust ? (
                  <DropdownMenu.Item className={itemClass} disabled={!active} onSelect={() => onAdjust(product)}>
                    <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
                    Adjust stock
                  </DropdownMenu.Item>
                ) : null}
                {canManageProducts ? (
                  <>
                    <DropdownMenu.Item className={itemClass} onSelect={() => onEdit(product)}>
                      <Pencil aria-hidden="true" className="h-4 w-4" />
                      Edit
                    </DropdownMenu.Item>
                    {onHistory ? (
                      <DropdownMenu.Item className={itemClass} onSelect={() => onHistory(product)}>
                        <History aria-hidden="true" className="h-4 w-4" />
                        Audit trail
                      </DropdownMenu.Item>
                    ) : null}
                    <DropdownMenu.Item className={itemClass} disabled={statusBusy} onSelect={() => onToggleStatus(product)}>
                      <Power aria-hidden="true" className="h-4 w-4" />
                      {toggleLabel}
                    </DropdownMenu.Item>
                  </>
                ) : null}
              </DropdownMenu.Content>
            </DropdownMenu.Portal>
          </DropdownMenu.Root>
        </div>
      )}
    </>
  );
}
