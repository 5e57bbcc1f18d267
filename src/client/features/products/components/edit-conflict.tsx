import { useEffect, useRef } from "react";
import type { Product } from "../../../../contract/products";
import type { EditableField } from "../../../../contract/rules";
import { MESSAGES } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { type EditableValues, FIELD_LABELS } from "../product-form";

export interface Conflict {
  /** The product as it is now (from the 409 answer). */
  current: Product;
  /** What this edit sends: the fields the user changed. */
  mine: Partial<EditableValues>;
  /** The sent fields someone else changed meanwhile. */
  fields: EditableField[];
}

function show(value: unknown): string {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}

interface EditConflictProps {
  conflict: Conflict;
  saving: boolean;
  error: string | null;
  onApply: () => void;
  onDiscard: () => void;
}

/** A stale edit's conflict: the conflicting fields, current value against the user's, and the two ways on. */
export function EditConflict({ conflict, saving, error, onApply, onDiscard }: EditConflictProps) {
  const message = useRef<HTMLParagraphElement>(null);
  // The form (and the focused Save button) is gone: focus the explanation.
  useEffect(() => message.current?.focus(), []);
  const names = conflict.fields.map((f) => FIELD_LABELS[f]).join(", ");

  return (
    <div className="flex flex-col gap-4" data-testid="edit-conflict">
      <p
        ref={message}
        tabIndex={-1}
        role="alert"
        className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm font-semibold text-amber-900 outline-none dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
      >
        {MESSAGES.versionConflict}: {names}. Apply your values over the current ones, or discard yours.
      </p>
      <table className="w-full text-left text-sm">
        <thead>
          <tr className="border-b border-gray-300 dark:border-gray-600">
            <th scope="col" className="py-2 pr-3">
              Field
            </th>
            <th scope="col" className="py-2 pr-3">
              Current value
            </th>
            <th scope="col" className="py-2">
              Your value
            </th>
          </tr>
        </thead>
        <tbody>
          {conflict.fields.map((field) => (
            <tr key={field} className="border-b border-gray-200 dark:border-gray-700">
              <th scope="row" className="py-2 pr-3 font-medium">
                {FIELD_LABELS[field]}
              </th>
              <td className="py-2 pr-3">{show(conflict.current[field])}</td>
              <td className="py-2 font-semibold text-blue-800 dark:text-blue-300">{show(conflict.mine[field])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
          {error}
        </p>
      ) : null}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onDiscard} disabled={saving}>
          Discard My Changes
        </Button>
        <Button disabled={saving} onClick={onApply}>
          {saving ? "Saving..." : "Apply My Changes"}
        </Button>
      </div>
    </div>
  );
}
