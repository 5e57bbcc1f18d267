import { Download } from "lucide-react";
import { type ReactNode, useId } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";

interface ReportCardProps {
  title: string;
  /** Controls beside the title (range switches, tabs). */
  controls?: ReactNode;
  /** The CSV of what the card shows; the button is left out while there is nothing. */
  onCsv?: () => void;
  csvLabel?: string;
  loading?: boolean;
  error?: Error | null;
  className?: string;
  children: ReactNode;
  testId?: string;
}

/** One report on the Reports view: a titled section with its controls, its CSV, and its content. */
export function ReportCard({ title, controls, onCsv, csvLabel = "CSV", loading, error, className, children, testId }: ReportCardProps) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      data-testid={testId}
      className={cn(
        "flex min-w-0 flex-col gap-2 rounded-xl border border-gray-200 bg-white p-3 text-gray-900 shadow-sm dark:border-gray-700 dark:bg-gray-900 dark:text-gray-50",
        className,
      )}
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 id={id} className="mr-auto text-base font-bold">
          {title}
        </h2>
        {controls}
        {onCsv ? (
          <Button variant="outline" size="sm" onClick={onCsv} aria-label={`${csvLabel}: download ${title} as CSV`}>
            <Download aria-hidden className="size-4" />
            {csvLabel}
          </Button>
        ) : null}
      </div>
      {error ? (
        <p role="alert" className="text-sm text-[var(--error-text)]">
          {error.message}
        </p>
      ) : loading ? (
        <div className="flex justify-center p-4">
          <Spinner label={`Loading ${title}`} />
        </div>
      ) : (
        children
      )}
    </section>
  );
}

/** A switch between a few choices (a radio group drawn as buttons). */
export function Choice<T extends string | number>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: ReadonlyArray<{ value: T; label: string }>;
  onChange: (value: T) => void;
}) {
  const name = useId();
  return (
    <fieldset className="flex items-center gap-0.5 rounded-md border border-gray-300 p-0.5 dark:border-gray-600">
      <legend className="sr-only">{label}</legend>
      {options.map((o) => (
        <label
          key={String(o.value)}
          className={cn(
            "cursor-pointer rounded px-2 py-0.5 text-xs font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600",
            o.value === value
              ? "bg-blue-700 text-white dark:bg-blue-600"
              : "text-gray-800 hover:bg-gray-100 dark:text-gray-100 dark:hover:bg-gray-800",
          )}
        >
          <input type="radio" className="sr-only" checked={o.value === value} onChange={() => onChange(o.value)} name={name} />
          {o.label}
        </label>
      ))}
    </fieldset>
  );
}

/** Chart or its table: the numbers of every chart are one keypress away, for keyboards and screen readers alike. */
export function ChartOrTable({
  showTable,
  onToggle,
  chart,
  table,
}: {
  showTable: boolean;
  onToggle: (table: boolean) => void;
  chart: ReactNode;
  table: ReactNode;
}) {
  return (
    <div className="flex flex-col gap-1">
      <div className="flex justify-end">
        <Button variant="ghost" size="sm" className="h-6 text-xs underline" aria-pressed={showTable} onClick={() => onToggle(!showTable)}>
          Numbers as a table
        </Button>
      </div>
      {showTable ? table : chart}
    </div>
  );
}

/** One figure of a report's totals (inside a <dl>): its label, value, change against before, and a note. */
export function Figure({
  label,
  value,
  change,
  note,
  testId,
}: {
  label: string;
  value: string;
  change?: string;
  note?: string;
  testId?: string;
}) {
  return (
    <div className="rounded-md bg-gray-50 px-2 py-1 dark:bg-gray-800">
      <dt className="text-xs text-gray-700 dark:text-gray-300">{label}</dt>
      <dd className="font-semibold tabular-nums" data-testid={testId}>
        {value}
        {change ? <span className="ml-1 text-xs font-normal text-gray-700 dark:text-gray-300">({change} vs before)</span> : null}
      </dd>
      {note ? <dd className="text-xs text-gray-700 dark:text-gray-300">{note}</dd> : null}
    </div>
  );
}
