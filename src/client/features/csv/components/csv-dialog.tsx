import { useQueryClient } from "@tanstack/react-query";
import { Download, FileDown, Upload } from "lucide-react";
import { type ChangeEvent, useId, useRef, useState } from "react";
import { IMPORT_JOB_MAX_ROWS, IMPORT_PART_ROWS, type ImportPreview, type ImportResult } from "../../../../contract/import";
import type { Product } from "../../../../contract/products";
import { CSV_COLUMNS, CSV_DETAIL_COLUMNS } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { queryKeys } from "../../../lib/query-client";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { importFile, previewInParts } from "../api/import-products";
import { downloadCsv, type ExportKind, exportCsv, exportFileName, TEMPLATE_FILE_NAME, templateCsv } from "../csv-format";
import { type CheckedRows, checkRows, isCsvFileName, NOT_CSV_MESSAGE, type ParsedCsv, parseCsvFile, previewRows } from "../csv-import";
import { ImportDiff } from "./import-diff";
import { ErrorList, ImportOutcome } from "./import-outcome";
import { RecentImports } from "./recent-imports";

type Phase =
  | { kind: "idle" }
  | { kind: "parsing"; fileName: string; progress: number }
  | { kind: "parsed"; fileName: string; parsed: ParsedCsv; checked: CheckedRows }
  | { kind: "checking"; fileName: string; parsed: ParsedCsv; checked: CheckedRows; progress: number }
  | { kind: "diff"; fileName: string; parsed: ParsedCsv; checked: CheckedRows; preview: ImportPreview }
  | { kind: "importing"; fileName: string; count: number; sent: number; saving: boolean; saved?: number }
  | { kind: "done"; result: ImportResult };

export interface CsvDialogProps {
  /** The catalogue the exports are made from: the view's live products. */
  products: readonly Product[];
  /** An import or an undo changed products: the view catches its products up (their live events may come later, or be lost). */
  onProductsChanged: () => void;
  onClose: () => void;
}

/** CSV import (parse, check, preview, dry-run diff, confirm, result) and export. */
export function CsvDialog({ products, onProductsChanged, onClose }: CsvDialogProps) {
  const queryClient = useQueryClient();
  const { permissions } = useAuth();
  const canManage = permissions.canManageProducts;
  const [phase, setPhase] = useState<Phase>({ kind: "idle" });
  const [error, setError] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = useId();
  const busy = phase.kind === "parsing" || phase.kind === "checking" || phase.kind === "importing";

  async function onFile(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    setError(null);
    if (!file) {
      setPhase({ kind: "idle" });
      return;
    }
    if (!isCsvFileName(file.name)) {
      setPhase({ kind: "idle" });
      setError(NOT_CSV_MESSAGE);
      return;
    }
    setPhase({ kind: "parsing", fileName: file.name, progress: 0 });
    try {
      const parsed = await parseCsvFile(file, (progress) => setPhase({ kind: "parsing", fileName: file.name, progress }));
      const checked = checkRows(parsed.rows);
      if (parsed.rows.length > IMPORT_JOB_MAX_ROWS) checked.errors.push(`At most ${IMPORT_JOB_MAX_ROWS} rows per import`);
      if (parsed.rows.length === 0) checked.errors.push("The file has no product rows");
      setPhase({ kind: "parsed", fileName: file.name, parsed, checked });
    } catch (err) {
      setPhase({ kind: "idle" });
      setError(err instanceof Error ? err.message : String(err));
    }
  }

  async function checkWithServer() {
    if (phase.kind !== "parsed") return;
    setError(null);
    const { fileName, parsed, checked } = phase;
    setPhase({ kind: "checking", fileName, parsed, checked, progress: 0 });
    try {
      // Large files are checked in parts, each call answering well within 10 s.
      const preview = await previewInParts(checked.valid, (progress) =>
        setPhase({ kind: "checking", fileName, parsed, checked, progress }),
      );
      setPhase({ kind: "diff", fileName, parsed, checked, preview });
    } catch (err) {
      setPhase({ kind: "parsed", fileName, parsed, checked });
      setError(`Import failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async function runImport() {
    if (phase.kind !== "diff") return;
    const back = phase;
    setError(null);
    const importing = { kind: "importing", fileName: phase.fileName, count: phase.checked.valid.length } as const;
    setPhase({ ...importing, sent: 0, saving: false });
    try {
      // Sent in parts when large, then written together: all rows or none.
      const result = await importFile(back.checked.valid, (state) => setPhase({ ...importing, ...state }));
      setPhase({ kind: "done", result });
      onProductsChanged();
      // The audit trails and the Recent imports list (under the audit keys) on screen refetch.
      void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
      notify.success(`Import complete: ${result.created} created, ${result.updated} updated`);
    } catch (err) {
      setPhase(back);
      setError(`Import failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function reset() {
    setPhase({ kind: "idle" });
    setError(null);
    if (inputRef.current) inputRef.current.value = "";
  }

  function exportProducts(kind: ExportKind) {
    downloadCsv(exportFileName(kind), exportCsv(products, kind));
  }

  const parsedView = phase.kind === "parsed" || phase.kind === "checking" ? phase : null;
  const columns = parsedView ? (parsedView.parsed.fields.length > 0 ? parsedView.parsed.fields : [...CSV_COLUMNS]) : [];

  return (
    <Dialog
      onClose={onClose}
      busy={busy}
      title="Import/Export CSV"
      description="Import products from a CSV file, or export the inventory."
      size="lg"
    >
      <div className="flex flex-col gap-6">
        <section aria-labelledby={`${inputId}-import`} className="flex flex-col gap-3">
          <h3 id={`${inputId}-import`} className="text-base font-bold">
            Import
          </h3>
          {phase.kind === "done" ? (
            <ImportOutcome result={phase.result} onAgain={reset} canUndo={canManage} onUndone={onProductsChanged} />
          ) : phase.kind === "diff" ? (
            <ImportDiff
              preview={phase.preview}
              onBack={() => setPhase({ kind: "parsed", fileName: phase.fileName, parsed: phase.parsed, checked: phase.checked })}
              onConfirm={() => void runImport()}
            />
          ) : phase.kind === "importing" ? (
            <div className="flex flex-col gap-2" role="status">
              <p className="flex items-center gap-2 font-medium">
                <Spinner label="Importing" />{" "}
                {phase.saving
                  ? `Saving ${phase.count.toLocaleString("en-US")} products from ${phase.fileName}...`
                  : `Importing ${phase.count.toLocaleString("en-US")} products from ${phase.fileName}...`}
              </p>
              {/* Sending the parts fills the bar, then the server's writing of them fills it again. */}
              {phase.saving && phase.saved !== undefined ? (
                <progress className="w-full" aria-label="Import progress" max={1} value={phase.saved} />
              ) : phase.saving || phase.sent === 0 ? (
                <progress className="w-full" aria-label="Import progress" />
              ) : (
                <progress className="w-full" aria-label="Import progress" max={1} value={phase.sent} />
              )}
            </div>
          ) : (
            <>
              <div className="flex flex-col gap-1.5">
                <label htmlFor={inputId} className="text-sm font-medium">
                  Choose a CSV file
                </label>
                <input
                  ref={inputRef}
                  id={inputId}
                  type="file"
                  accept=".csv,text/csv"
                  onChange={(e) => void onFile(e)}
                  disabled={busy}
                  className="block w-full text-sm file:mr-3 file:rounded-lg file:border-0 file:bg-blue-700 file:px-4 file:py-2 file:font-semibold file:text-white hover:file:bg-blue-800"
                />
                <p className="text-xs text-gray-700 dark:text-gray-300">Columns: {CSV_COLUMNS.join(", ")}</p>
                <p className="text-xs text-gray-700 dark:text-gray-300">Optional: {CSV_DETAIL_COLUMNS.join(", ")} (prices as 12.50)</p>
              </div>
              {phase.kind === "parsing" ? (
                <div className="flex flex-col gap-1" role="status">
                  <p className="text-sm">Reading {phase.fileName}...</p>
                  <progress className="w-full" max={1} value={phase.progress} aria-label="Reading progress" />
                </div>
              ) : null}
              {parsedView ? (
                <div className="flex flex-col gap-3">
                  <p className="text-sm">
                    <span className="font-semibold">{parsedView.fileName}</span>: {parsedView.parsed.rows.length.toLocaleString("en-US")}{" "}
                    rows. Preview of the first rows:
                  </p>
                  {/* Scrolls sideways on phones: focusable so a keyboard can scroll it too. */}
                  <section
                    aria-label="Preview of the first rows"
                    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
                    tabIndex={0}
                    className="overflow-x-auto rounded-lg border border-gray-200 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-700"
                  >
                    <table className="w-full text-left text-xs" data-testid="csv-preview">
                      <thead className="bg-gray-100 dark:bg-gray-800">
                        <tr>
                          {columns.map((c) => (
                            <th key={c} scope="col" className="px-2 py-1.5 font-semibold">
                              {c}
                            </th>
                          ))}
                        </tr>
                      </thead>
                      <tbody>
                        {previewRows(parsedView.parsed.rows).map((row, i) => (
                          // biome-ignore lint/suspicious/noArrayIndexKey: preview rows have no identity
                          <tr key={i} className="border-t border-gray-200 dark:border-gray-700">
                            {columns.map((c) => (
                              <td key={c} className="px-2 py-1.5">
                                {row[c] ?? ""}
                              </td>
                            ))}
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </section>
                  <ErrorList errors={parsedView.checked.errors} title="Validation errors (fix them before importing)" />
                  <div className="flex flex-wrap gap-2">
                    <Button
                      onClick={() => void checkWithServer()}
                      disabled={parsedView.checked.errors.length > 0 || phase.kind === "checking"}
                    >
                      {phase.kind === "checking" ? <Spinner label="Checking" /> : <Upload aria-hidden="true" className="h-4 w-4" />}
                      {phase.kind === "checking"
                        ? "Checking..."
                        : `Import ${parsedView.checked.valid.length.toLocaleString("en-US")} ${parsedView.checked.valid.length === 1 ? "Product" : "Products"}`}
                    </Button>
                    <Button variant="secondary" onClick={reset} disabled={phase.kind === "checking"}>
                      Clear
                    </Button>
                  </div>
                  {phase.kind === "checking" && parsedView.checked.valid.length > IMPORT_PART_ROWS ? (
                    <progress className="w-full" aria-label="Checking progress" max={1} value={phase.progress} />
                  ) : null}
                </div>
              ) : null}
            </>
          )}
          {error ? (
            <p
              role="alert"
              className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
            >
              {error}
            </p>
          ) : null}
        </section>

        {canManage ? <RecentImports onUndone={onProductsChanged} /> : null}

        <section aria-labelledby={`${inputId}-export`} className="flex flex-col gap-3 border-t border-gray-200 pt-4 dark:border-gray-700">
          <h3 id={`${inputId}-export`} className="text-base font-bold">
            Export
          </h3>
          <div className="flex flex-wrap gap-2">
            <Button variant="outline" onClick={() => exportProducts("active")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              Export Active Inventory
            </Button>
            <Button variant="outline" onClick={() => exportProducts("complete")}>
              <Download aria-hidden="true" className="h-4 w-4" />
              Export Complete Inventory
            </Button>
            <Button variant="ghost" onClick={() => downloadCsv(TEMPLATE_FILE_NAME, templateCsv())}>
              <FileDown aria-hidden="true" className="h-4 w-4" />
              Download Template
            </Button>
          </div>
        </section>
      </div>
    </Dialog>
  );
}
