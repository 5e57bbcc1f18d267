import { CheckCircle2 } from "lucide-react";
import type { ImportResult } from "../../../../contract/import";
import { Button } from "../../../components/ui/button";
import { errorSummary } from "../csv-import";
import { UndoImport } from "./undo-import";

/** At most 10 errors, then '... and N more errors'. */
export function ErrorList({ errors, title }: { errors: string[]; title: string }) {
  const { shown, more } = errorSummary(errors);
  if (errors.length === 0) return null;
  return (
    <div
      role="alert"
      className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <p className="font-semibold">{title}</p>
      <ul className="mt-1 list-disc pl-5">
        {shown.map((e, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the same message may appear twice
          <li key={`${i}-${e}`}>{e}</li>
        ))}
      </ul>
      {more ? <p className="mt-1 font-medium">{more}</p> : null}
    </div>
  );
}

export interface ImportOutcomeProps {
  result: ImportResult;
  onAgain: () => void;
  /** Offer "Undo this import" (the answer's import_id); for users who can manage products. */
  canUndo?: boolean;
  onUndone?: () => void;
}

/** 'Import Complete!' with the Created, Updated and Skipped counts and the errors; then Undo this import. */
export function ImportOutcome({ result, onAgain, canUndo = false, onUndone }: ImportOutcomeProps) {
  return (
    <div className="flex flex-col gap-3" data-testid="import-result">
      <p role="status" className="flex items-center gap-2 text-lg font-bold text-green-800 dark:text-green-300">
        <CheckCircle2 aria-hidden="true" className="h-6 w-6" />
        Import Complete!
      </p>
      <dl className="grid grid-cols-3 gap-3 text-center">
        {(
          [
            ["Created", result.created],
            ["Updated", result.updated],
            ["Skipped", result.skipped],
          ] as const
        ).map(([label, value]) => (
          <div key={label} className="rounded-lg bg-gray-100 p-3 dark:bg-gray-800">
            <dt className="text-sm">{label}</dt>
            <dd className="text-2xl font-bold" data-testid={`import-${label.toLowerCase()}`}>
              {value}
            </dd>
          </div>
        ))}
      </dl>
      <ErrorList errors={result.errors} title="Errors" />
      <div>
        <Button variant="secondary" onClick={onAgain}>
          Import Another File
        </Button>
      </div>
      {canUndo && result.import_id ? (
        <UndoImport importId={result.import_id} available text="Undo this import" onUndone={onUndone} />
      ) : null}
    </div>
  );
}
