import { QUANTITY_MAX_EXCLUSIVE } from "../../../contract/rules";

/** How an adjustment is given: an amount to add or remove, or the quantity counted on the shelf. */
export type AdjustMode = "add" | "remove" | "count";

/** The reasons a stock change is recorded with (sent as `reason`, kept in the quantity audit's notes). */
export const ADJUST_REASONS = [
  { id: "received", label: "Received", mode: "add" },
  { id: "damaged", label: "Damaged", mode: "remove" },
  { id: "lost", label: "Lost", mode: "remove" },
  { id: "recount", label: "Recount", mode: "count" },
  { id: "returned", label: "Returned", mode: "add" },
  { id: "show-sale", label: "Show sale", mode: "remove" },
  { id: "other", label: "Other", mode: "add" },
] as const satisfies ReadonlyArray<{ id: string; label: string; mode: AdjustMode }>;
export type AdjustReasonId = (typeof ADJUST_REASONS)[number]["id"];

export const ADJUST_MODE_LABELS: Record<AdjustMode, string> = { add: "Add", remove: "Remove", count: "Set counted" };

export const REASON_MAX = 200;
export const ADJUST_MESSAGES = {
  amount: "Enter a whole number of 1 or more",
  counted: "Enter the counted quantity: a whole number of 0 or more",
  tooMuch: "Cannot remove more than the stock on hand",
  noChange: "The count matches the stock: nothing to change",
  note: "Say what happened in the note",
} as const;

export interface AdjustInput {
  mode: AdjustMode;
  /** As typed: the amount (add, remove) or the counted quantity. */
  value: string;
  reason: AdjustReasonId;
  note: string;
  /** The stock the dialog shows (a count starts from it). */
  stock: number;
}

export type AdjustPlan = { ok: true; change: number; after: number; reason: string; expected?: number } | { ok: false; error: string };

/** The reason as sent: its label, then the note ('Damaged: water damage'). */
export function reasonText(reason: AdjustReasonId, note: string): string {
  const label = ADJUST_REASONS.find((r) => r.id === reason)?.label ?? "Other";
  const extra = note.trim();
  return (extra ? `${label}: ${extra}` : label).slice(0, REASON_MAX);
}

function wholeNumber(text: string): number | null {
  const t = text.trim();
  return /^\d+$/.test(t) && Number(t) < QUANTITY_MAX_EXCLUSIVE ? Number(t) : null;
}

/**
 * One PUT /api/products/{id}/quantity: the signed change and the reason; a count also sends the
 * stock it started from (`expected`), so the server refuses it when the stock moved meanwhile.
 */
export function planAdjustment(input: AdjustInput): AdjustPlan {
  const n = wholeNumber(input.value);
  if (input.reason === "other" && input.note.trim() === "") return { ok: false, error: ADJUST_MESSAGES.note };
  const reason = reasonText(input.reason, input.note);
  if (input.mode === "count") {
    if (n === null) return { ok: false, error: ADJUST_MESSAGES.counted };
    if (n === input.stock) return { ok: false, error: ADJUST_MESSAGES.noChange };
    return { ok: true, change: n - input.stock, after: n, reason, expected: input.stock };
  }
  if (n === null || n === 0) return { ok: false, error: ADJUST_MESSAGES.amount };
  if (input.mode === "remove" && n > input.stock) return { ok: false, error: ADJUST_MESSAGES.tooMuch };
  const change = input.mode === "add" ? n : -n;
  return { ok: true, change, after: input.stock + change, reason };
}
