import { useEffect, useId, useMemo, useState } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { inputClassName } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import { isoDay } from "../../../lib/dates";
import { downloadBlob } from "../../../lib/download";
import { messageOr } from "../../../lib/http";
import { useMoney } from "../../settings";
import { pngOf, renderLabel } from "../label-image";
import { labelsPdf } from "../label-pdf";
import { COPIES_MAX, COPIES_MIN, copiesOf, LABEL_SHEETS, pageCount, sheetById } from "../label-sheets";

export interface PrintLabelsDialogProps {
  products: Product[];
  onClose: () => void;
}

const SHEET_KEY = "blez.labels.sheet";
/** Previews drawn at most; every label still prints. */
const PREVIEWS_MAX = 24;

type Rendered = { canvas: HTMLCanvasElement; url: string } | { error: string };

/**
 * "Print labels": a label size, copies per product, a preview of each label, and a PDF to print
 * (Code 128 of the barcode, name, set and number, grade or condition, price).
 */
export function PrintLabelsDialog({ products, onClose }: PrintLabelsDialogProps) {
  const money = useMoney();
  const sheetId = useId();
  const [sheet, setSheet] = useState(() => sheetById(localStorage.getItem(SHEET_KEY) ?? ""));
  const [copies, setCopies] = useState<Record<number, string>>({});
  const [rendered, setRendered] = useState<Map<number, Rendered>>(new Map());
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  // Every label drawn again for the chosen size (and when the products change live).
  useEffect(() => {
    let cancelled = false;
    const urls: string[] = [];
    void (async () => {
      const next = new Map<number, Rendered>();
      for (const p of products) {
        try {
          const canvas = await renderLabel(p, sheet, money);
          const url = next.size < PREVIEWS_MAX ? canvas.toDataURL("image/png") : "";
          if (url) urls.push(url);
          next.set(p.id, { canvas, url });
        } catch (err) {
          next.set(p.id, { error: messageOr(err, "Failed to draw the label") });
        }
        if (cancelled) return;
      }
      setRendered(next);
    })();
    return () => {
      cancelled = true;
    };
  }, [products, sheet, money]);

  const counts = products.map((p) => copiesOf(copies[p.id] ?? "1"));
  const total = counts.reduce<number>((sum, n) => sum + (n ?? 0), 0);
  const invalidCopies = counts.some((n) => n === null);
  const failures = [...rendered.values()].flatMap((r) => ("error" in r ? [r.error] : []));
  const ready = rendered.size === products.length && products.length > 0;
  const pages = useMemo(() => pageCount(sheet, total), [sheet, total]);

  async function download() {
    setError(null);
    setBusy(true);
    try {
      const runs = [];
      for (const [i, p] of products.entries()) {
        const r = rendered.get(p.id);
        if (!r || "error" in r) continue;
        runs.push({ png: await pngOf(r.canvas), copies: counts[i] ?? 1 });
      }
      const pdf = await labelsPdf(runs, sheet);
      downloadBlob(`labels-${isoDay(new Date())}.pdf`, new Blob([pdf as BlobPart], { type: "application/pdf" }));
    } catch (err) {
      setError(messageOr(err, "Failed to make the labels"));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Dialog
      onClose={onClose}
      busy={busy}
      title="Print labels"
      description={`${products.length} ${products.length === 1 ? "product" : "products"}: ${total} ${total === 1 ? "label" : "labels"} on ${pages} ${pages === 1 ? "page" : "pages"}`}
      size="lg"
    >
      <div className="flex flex-col gap-4">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={sheetId} className="text-sm font-medium">
            Label size
          </label>
          <select
            id={sheetId}
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            value={sheet.id}
            onChange={(e) => {
              const next = sheetById(e.target.value);
              localStorage.setItem(SHEET_KEY, next.id);
              setSheet(next);
            }}
            disabled={busy}
          >
            {LABEL_SHEETS.map((s) => (
              <option key={s.id} value={s.id}>
                {s.name}
              </option>
            ))}
          </select>
        </div>
        <ul className="flex max-h-[50vh] flex-col gap-3 overflow-y-auto" aria-label="Labels">
          {products.map((p, i) => {
            const r = rendered.get(p.id);
            const name = p.product_name;
            return (
              <li key={p.id} className="flex flex-wrap items-center gap-3 rounded-lg border border-gray-300 p-2 dark:border-gray-700">
                <div className="w-48 shrink-0">
                  {r && "url" in r && r.url ? (
                    <img
                      src={r.url}
                      alt={`Label of ${name}`}
                      className="w-full border border-gray-300 bg-white"
                      data-testid="label-preview"
                    />
                  ) : r && "error" in r ? (
                    <p className="text-sm font-medium text-red-700 dark:text-red-300">{r.error}</p>
                  ) : (
                    <p className="text-sm text-gray-600 dark:text-gray-300">{r ? "No preview" : "Drawing..."}</p>
                  )}
                </div>
                <div className="flex min-w-0 flex-1 flex-col gap-1">
                  <span className="truncate font-semibold">{name}</span>
                  <span className="text-sm text-gray-700 dark:text-gray-300">{p.barcode}</span>
                </div>
                <label className="flex items-center gap-2 text-sm">
                  Copies
                  <input
                    type="number"
                    inputMode="numeric"
                    min={COPIES_MIN}
                    max={COPIES_MAX}
                    step={1}
                    aria-label={`Copies of ${name}`}
                    aria-invalid={counts[i] === null || undefined}
                    className={cn(inputClassName, "w-20", counts[i] === null ? "border-red-600" : "border-gray-400 dark:border-gray-600")}
                    value={copies[p.id] ?? "1"}
                    onChange={(e) => setCopies((c) => ({ ...c, [p.id]: e.target.value }))}
                    disabled={busy}
                  />
                </label>
              </li>
            );
          })}
        </ul>
        {invalidCopies || failures.length > 0 || error ? (
          <div
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {invalidCopies ? <p>{`Copies must be a whole number from ${COPIES_MIN} to ${COPIES_MAX}`}</p> : null}
            {failures.length > 0 ? (
              <p>{`${failures.length} ${failures.length === 1 ? "label" : "labels"} cannot print: ${failures[0]}`}</p>
            ) : null}
            {error ? <p>{error}</p> : null}
          </div>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={busy}>
            Close
          </Button>
          <Button onClick={() => void download()} disabled={busy || !ready || invalidCopies || total === 0}>
            {busy ? "Making PDF..." : ready ? "Download PDF" : "Drawing labels..."}
          </Button>
        </div>
      </div>
    </Dialog>
  );
}
