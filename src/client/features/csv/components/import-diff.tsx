import type { ImportPreview, ImportPreviewRow } from "../../../../contract/import";
import { centsToAmount } from "../../../../contract/money";
import { Button } from "../../../components/ui/button";

/** Rows listed in the diff; the counts always cover every row. */
const LISTED_MAX = 200;

/** A value as the file writes it (money as an amount, 12.50). */
function cell(field: string, value: unknown): string {
  if (value === null || value === undefined || value === "") return "(empty)";
  if ((field === "price" || field === "cost") && typeof value === "number") return centsToAmount(value);
  return String(value);
}

function Changes({ row }: { row: ImportPreviewRow }) {
  return (
    <ul className="text-xs">
      {Object.entries(row.changes).map(([field, [before, after]]) => (
        <li key={field}>
          <span className="font-semibold">{field}</span>: {cell(field, before)} → {cell(field, after)}
        </li>
      ))}
    </ul>
  );
}

/** The dry run's answer: what would be created, updated (old -> new) and left unchanged. */
export function ImportDiff({ preview, onBack, onConfirm }: { preview: ImportPreview; onBack: () => void; onConfirm: () => void }) {
  const creates = preview.rows.filter((r) => r.action === "create");
  const updates = preview.rows.filter((r) => r.action === "update");
  const unchanged = preview.rows.filter((r) => r.action === "unchanged").length;
  const listed = [...updates, ...creates].slice(0, LISTED_MAX);
  const rest = creates.length + updates.length - listed.length;
  const nothing = creates.length === 0 && updates.length === 0;

  return (
    <div className="flex flex-col gap-3" data-testid="import-diff">
      <p className="font-semibold">Review the changes before importing:</p>
      <ul className="grid grid-cols-3 gap-3 text-center">
        <li className="rounded-lg bg-green-50 p-3 dark:bg-green-950">
          <span className="block text-2xl font-bold" data-testid="diff-create">
            {creates.length}
          </span>
          <span className="text-sm">to create</span>
        </li>
        <li className="rounded-lg bg-blue-50 p-3 dark:bg-blue-950">
          <span className="block text-2xl font-bold" data-testid="diff-update">
            {updates.length}
          </span>
          <span className="text-sm">to update</span>
        </li>
        <li className="rounded-lg bg-gray-100 p-3 dark:bg-gray-800">
          <span className="block text-2xl font-bold" data-testid="diff-unchanged">
            {unchanged}
          </span>
          <span className="text-sm">unchanged</span>
        </li>
      </ul>
      {listed.length > 0 ? (
        <section
          aria-label="Changes to import"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
          tabIndex={0}
          className="max-h-72 overflow-y-auto rounded-lg border border-gray-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-700"
        >
          <table className="w-full text-left text-sm">
            <thead className="sticky top-0 bg-gray-100 dark:bg-gray-800">
              <tr>
                <th scope="col" className="px-2 py-1.5">
                  Row
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Barcode
                </th>
                <th scope="col" className="px-2 py-1.5">
                  Change
                </th>
              </tr>
            </thead>
            <tbody>
              {listed.map((row) => (
                <tr key={row.row} className="border-t border-gray-200 align-top dark:border-gray-700">
                  <td className="px-2 py-1.5">{row.row}</td>
                  <td className="px-2 py-1.5 font-mono">{row.barcode}</td>
                  <td className="px-2 py-1.5">
                    {row.action === "create" ? <span className="font-medium">New product</span> : <Changes row={row} />}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ) : null}
      {rest > 0 ? <p className="text-sm">... and {rest} more rows</p> : null}
      {nothing ? <p className="text-sm">Nothing to import: every row matches the inventory already.</p> : null}
      <div className="flex flex-wrap gap-2">
        <Button onClick={onConfirm}>Confirm Import</Button>
        <Button variant="secondary" onClick={onBack}>
          Back
        </Button>
      </div>
    </div>
  );
}
