import { ChevronDown, Search, SlidersHorizontal } from "lucide-react";
import { type Ref, useId, useState } from "react";
import { CONDITIONS, GRADERS } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Field, Input, inputClassName } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import {
  type FilterOptions,
  hasActiveFilters,
  type InventoryFilters,
  NO_GRADER,
  panelFilterCount,
  QUANTITY_RANGE_LABELS,
  type QuantityRange,
  STATUS_LABELS,
  type StatusFilter,
} from "../filters";

export interface FilterBarProps {
  filters: InventoryFilters;
  onChange: (next: InventoryFilters) => void;
  onClear: () => void;
  /** The vendors, years and locations to choose from: asked for when the panel opens (they take a pass over the catalogue). */
  options: () => FilterOptions;
  /** The search box (the '/' shortcut focuses it). */
  searchRef?: Ref<HTMLInputElement>;
}

const NO_OPTIONS: FilterOptions = { vendors: [], years: [], locations: [] };

const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

/** Search box, 'Active only', the expandable Filters panel and 'Clear All'. */
export function FilterBar({ filters, onChange, onClear, options, searchRef }: FilterBarProps) {
  const [open, setOpen] = useState(false);
  const { vendors, years, locations } = open ? options() : NO_OPTIONS;
  const panelId = useId();
  const set = <K extends keyof InventoryFilters>(key: K, value: InventoryFilters[K]) => onChange({ ...filters, [key]: value });
  const count = panelFilterCount(filters);

  return (
    <section
      aria-label="Search and filters"
      className="flex flex-col gap-2 rounded-xl border border-gray-200 bg-white p-2 shadow-sm sm:gap-3 sm:p-3 dark:border-gray-700 dark:bg-gray-900"
    >
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <div className="relative min-w-56 flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute left-3 top-1/2 h-4 w-4 -translate-y-1/2 text-gray-600 dark:text-gray-300"
          />
          <Input
            ref={searchRef}
            type="search"
            aria-keyshortcuts="/"
            aria-label="Search products"
            placeholder="Search by name, vendor, barcode, set or location"
            value={filters.searchText}
            onChange={(e) => set("searchText", e.target.value)}
            className="pl-9"
            autoComplete="off"
            spellCheck={false}
          />
        </div>
        <label className="flex cursor-pointer items-center gap-2 text-sm font-medium">
          <input
            type="checkbox"
            className="h-4 w-4 accent-blue-700"
            checked={filters.activeOnly}
            onChange={(e) =>
              onChange({
                ...filters,
                activeOnly: e.target.checked,
                status: e.target.checked && filters.status === "disabled" ? "all" : filters.status,
              })
            }
          />
          Active only
        </label>
        <Button variant="outline" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen((o) => !o)}>
          <SlidersHorizontal aria-hidden="true" className="h-4 w-4" />
          Filters{count > 0 ? ` (${count})` : ""}
          <ChevronDown aria-hidden="true" className={cn("h-4 w-4 transition-transform", open && "rotate-180")} />
        </Button>
        <Button variant="ghost" onClick={onClear} disabled={!hasActiveFilters(filters)}>
          Clear All
        </Button>
      </div>
      {open ? (
        <div id={panelId} className="grid gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <Field label="Vendor">
            <select className={selectClassName} value={filters.vendor} onChange={(e) => set("vendor", e.target.value)}>
              <option value="">All vendors</option>
              {vendors.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Release Year">
            <select className={selectClassName} value={filters.releaseYear} onChange={(e) => set("releaseYear", e.target.value)}>
              <option value="">All years</option>
              {years.map((y) => (
                <option key={y} value={String(y)}>
                  {y}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Quantity">
            <select
              className={selectClassName}
              value={filters.quantityRange}
              onChange={(e) => set("quantityRange", e.target.value as QuantityRange)}
            >
              {(Object.keys(QUANTITY_RANGE_LABELS) as QuantityRange[]).map((k) => (
                <option key={k} value={k}>
                  {QUANTITY_RANGE_LABELS[k]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Status">
            <select
              className={selectClassName}
              value={filters.status}
              onChange={(e) => {
                const status = e.target.value as StatusFilter;
                // Disabled products are hidden by 'Active only': asking for them turns it off.
                onChange({ ...filters, status, activeOnly: status === "disabled" ? false : filters.activeOnly });
              }}
            >
              {(Object.keys(STATUS_LABELS) as StatusFilter[]).map((k) => (
                <option key={k} value={k}>
                  {STATUS_LABELS[k]}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Condition">
            <select className={selectClassName} value={filters.condition} onChange={(e) => set("condition", e.target.value)}>
              <option value="">All conditions</option>
              {CONDITIONS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </Field>
          <Field label="Grader">
            <select className={selectClassName} value={filters.grader} onChange={(e) => set("grader", e.target.value)}>
              <option value="">All graders</option>
              {GRADERS.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
              <option value={NO_GRADER}>Not graded</option>
            </select>
          </Field>
          <Field label="Location">
            <select className={selectClassName} value={filters.location} onChange={(e) => set("location", e.target.value)}>
              <option value="">All locations</option>
              {locations.map((l) => (
                <option key={l} value={l}>
                  {l}
                </option>
              ))}
            </select>
          </Field>
        </div>
      ) : null}
    </section>
  );
}
