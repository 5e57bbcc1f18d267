import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { STOCK_MOVED } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, Input, inputClassName } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import { ApiError } from "../../../lib/http";
import { errorText, failureText, notify } from "../../notifications";
import { ADJUST_MODE_LABELS, ADJUST_REASONS, type AdjustMode, type AdjustReasonId, planAdjustment } from "../adjust-stock";
import { QUANTITY_FAILED } from "../messages";
import { usePendingDelta, useProduct, useProductStore, useWaitingTaps } from "../store/product-store-provider";

export interface AdjustStockDialogProps {
  product: Product;
  onClose: () => void;
}

const MODES: AdjustMode[] = ["add", "remove", "count"];

/**
 * 'Adjust Stock': add or remove an amount, or set the counted quantity, with a reason from the
 * list; one quantity change through the product store's queue (as a tap), so the audit trail
 * reads the reason. While the server is out of reach the change waits there as pending and the
 * dialog closes; its outcome is then told by a toast. A count keeps the stock it started from,
 * so it is refused if the stock moved before it arrives.
 */
export function AdjustStockDialog({ product, onClose }: AdjustStockDialogProps) {
  const store = useProductStore();
  const live = useProduct(product.id) ?? product;
  const stock = live.quantity_on_hand + usePendingDelta(product.id);
  const id = useId();
  const [mode, setMode] = useState<AdjustMode>("add");
  const [value, setValue] = useState("");
  const [reason, setReason] = useState<AdjustReasonId>("received");
  const [note, setNote] = useState("");
  // A count starts from the stock shown when it began; it moves on only when the server says the stock moved.
  const [countFrom, setCountFrom] = useState(stock);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  /** The dialog closed while its change waits for the server. */
  const closed = useRef(false);
  const waiting = useRef("");
  const { offline } = useWaitingTaps();
  const base = mode === "count" ? countFrom : stock;
  const plan = planAdjustment({ mode, value, reason, note, stock: base });

  // The change waits for the server (pending on the card, sent with its key once it is back).
  useEffect(() => {
    if (!saving || !offline || closed.current) return;
    closed.current = true;
    notify.info(waiting.current);
    onClose();
  }, [saving, offline, onClose]);

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setError(null);
    };
  const chooseMode = (next: AdjustMode) => {
    setMode(next);
    setError(null);
    if (next === "count") setCountFrom(stock);
  };
  // A reason suggests its direction (received adds, damaged removes, recount counts); the user may change it.
  const chooseReason = (next: AdjustReasonId) => {
    edit(setReason)(next);
    const preset = ADJUST_REASONS.find((r) => r.id === next)?.mode;
    if (preset && next !== "other") chooseMode(preset);
  };

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (saving) return;
    if (!plan.ok) {
      setError(plan.error);
      return;
    }
    waiting.current = `${live.product_name}: stock ${base} → ${plan.after} (${plan.reason}) is pending: sent once the server is back`;
    setSaving(true);
    setError(null);
    try {
      const updated = await store.tap(product.id, plan.change, plan.reason, { expected: plan.expected });
      notify.success(`${updated.product_name}: stock ${base} → ${updated.quantity_on_hand} (${plan.reason})`);
      if (!closed.current) onClose();
    } catch (err) {
      if (closed.current) {
        notify.error(`${QUANTITY_FAILED}: ${live.product_name}: ${errorText(err)}`);
        return;
      }
      setSaving(false);
      if (err instanceof ApiError && err.status === 409 && plan.expected !== undefined && err.message === STOCK_MOVED) {
        const now = store.shownQuantity(product.id);
        setCountFrom(now);
        setError(`${STOCK_MOVED} (it is now ${now}). Count again and enter what you find.`);
        return;
      }
      setError(failureText(QUANTITY_FAILED, err));
    }
  }

  const errorId = `${id}-error`;
  return (
    <Dialog onClose={onClose} busy={saving} title="Adjust Stock" description={live.product_name}>
      <form onSubmit={(e) => void onSubmit(e)} noValidate className="flex flex-col gap-4" aria-describedby={error ? errorId : undefined}>
        <p className="text-sm">
          In stock now:{" "}
          <span className="text-lg font-bold tabular-nums" data-testid="adjust-stock-now">
            {stock}
          </span>
        </p>
        <fieldset className="flex flex-col gap-1.5">
          <legend className="mb-1.5 text-sm font-medium">Change</legend>
          <div className="grid grid-cols-3 gap-1 rounded-lg bg-gray-100 p-1 dark:bg-gray-800">
            {MODES.map((m) => (
              <label
                key={m}
                className={cn(
                  "flex cursor-pointer items-center justify-center rounded-md px-2 py-1.5 text-sm font-semibold",
                  "has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-blue-600",
                  mode === m ? "bg-white text-blue-800 shadow-sm dark:bg-gray-900 dark:text-blue-300" : "text-gray-800 dark:text-gray-100",
                )}
              >
                <input type="radio" name={`${id}-mode`} value={m} checked={mode === m} onChange={() => chooseMode(m)} className="sr-only" />
                {ADJUST_MODE_LABELS[m]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="grid grid-cols-2 gap-3">
          <Field label={mode === "count" ? "Counted quantity" : "Amount"}>
            <Input
              type="number"
              inputMode="numeric"
              min={mode === "count" ? 0 : 1}
              step={1}
              autoFocus
              value={value}
              disabled={saving}
              onChange={(e) => edit(setValue)(e.target.value)}
            />
          </Field>
          <Field label="Reason">
            <select
              className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
              value={reason}
              disabled={saving}
              onChange={(e) => chooseReason(e.target.value as AdjustReasonId)}
            >
              {ADJUST_REASONS.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
          </Field>
        </div>
        <Field label={reason === "other" ? "Note *" : "Note (optional)"}>
          <Input value={note} maxLength={180} disabled={saving} onChange={(e) => edit(setNote)(e.target.value)} autoComplete="off" />
        </Field>
        <p className="text-sm text-gray-800 dark:text-gray-100" aria-live="polite" data-testid="adjust-preview">
          {plan.ok ? (
            <>
              Stock {base} → <span className="font-bold">{plan.after}</span> ({plan.change > 0 ? `+${plan.change}` : plan.change})
            </>
          ) : (
            "\u00a0"
          )}
        </p>
        {error ? (
          <p
            id={errorId}
            role="alert"
            className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {error}
          </p>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Saving..." : "Save Adjustment"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
