import { ChevronDown, ClipboardList, FileSpreadsheet, LayoutGrid, PackagePlus, ScanLine, Table2 } from "lucide-react";
import { DropdownMenu } from "radix-ui";
import type { ReactNode } from "react";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { mainLandmark } from "../../../lib/main-landmark";
import type { ViewMode } from "../view-prefs";

export type ManagementAction = "scan" | "add" | "csv" | "audit";

const ACTIONS: Array<{ id: ManagementAction; label: string; icon: ReactNode; variant: "primary" | "success" | "outline" }> = [
  { id: "scan", label: "Scan to Add Product", icon: <ScanLine aria-hidden="true" className="h-4 w-4" />, variant: "primary" },
  { id: "add", label: "Add Product Manually", icon: <PackagePlus aria-hidden="true" className="h-4 w-4" />, variant: "success" },
  { id: "csv", label: "Import/Export CSV", icon: <FileSpreadsheet aria-hidden="true" className="h-4 w-4" />, variant: "outline" },
  { id: "audit", label: "View Audit Trail", icon: <ClipboardList aria-hidden="true" className="h-4 w-4" />, variant: "outline" },
];

/** The four management buttons; on phones one 'Manage' menu, so the products start near the top. */
export function ManagementActions({ onAction }: { onAction: (action: ManagementAction) => void }) {
  return (
    <>
      <div className="hidden flex-wrap gap-2 md:flex">
        {ACTIONS.map((a) => (
          <Button key={a.id} variant={a.variant} onClick={() => onAction(a.id)}>
            {a.icon}
            {a.label}
          </Button>
        ))}
      </div>
      <div className="md:hidden">
        <DropdownMenu.Root modal={false}>
          <DropdownMenu.Trigger asChild>
            <Button id="inventory-manage-menu" variant="outline" size="sm">
              Manage
              <ChevronDown aria-hidden="true" className="h-4 w-4" />
            </Button>
          </DropdownMenu.Trigger>
          {/* Inside <main>: the open menu stays within a landmark (axe region). */}
          <DropdownMenu.Portal container={mainLandmark()}>
            <DropdownMenu.Content
              align="end"
              sideOffset={4}
              className="z-40 min-w-56 rounded-xl border border-gray-200 bg-white p-1 text-gray-900 shadow-lg dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50"
            >
              {ACTIONS.map((a) => (
                <DropdownMenu.Item
                  key={a.id}
                  onSelect={() => onAction(a.id)}
                  className="flex cursor-pointer items-center gap-2 rounded-md px-2 py-2.5 text-sm outline-none data-[highlighted]:bg-gray-100 dark:data-[highlighted]:bg-gray-800"
                >
                  {a.icon}
                  {a.label}
                </DropdownMenu.Item>
              ))}
            </DropdownMenu.Content>
          </DropdownMenu.Portal>
        </DropdownMenu.Root>
      </div>
    </>
  );
}

/** Cards or table (remembered per browser). */
export function ViewToggle({ mode, onChange }: { mode: ViewMode; onChange: (mode: ViewMode) => void }) {
  const option = (value: ViewMode, label: string, icon: ReactNode) => (
    <button
      type="button"
      aria-pressed={mode === value}
      onClick={() => onChange(value)}
      className={cn(
        "inline-flex h-8 items-center gap-1.5 rounded-md px-2.5 text-sm font-semibold focus-visible:outline-2 focus-visible:outline-blue-600",
        mode === value ? "bg-white text-blue-800 shadow-sm dark:bg-gray-900 dark:text-blue-300" : "text-gray-800 dark:text-gray-100",
      )}
    >
      {icon}
      {label}
    </button>
  );
  return (
    <fieldset className="inline-flex gap-1 rounded-lg bg-gray-200 p-0.5 dark:bg-gray-800">
      <legend className="sr-only">View</legend>
      {option("grid", "Cards", <LayoutGrid aria-hidden="true" className="h-4 w-4" />)}
      {option("table", "Table", <Table2 aria-hidden="true" className="h-4 w-4" />)}
    </fieldset>
  );
}
