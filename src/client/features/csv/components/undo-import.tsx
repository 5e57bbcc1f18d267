import { Loader2, Undo2 } from "lucide-react";
import { useEffect, useId, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { messageOr } from "../../../lib/http";
import { useUndoImport } from "../api/undo-import";
import { UndoOutcome } from "./undo-outcome";

export const UNDO_QUESTION = "Undo this import?";
export const UNDO_EXPLAINED =
  "Fields this import changed go back where no one changed them since; products it created are disabled if untouched.";
export const UNDO_FAILED = "Undo failed";

export interface UndoImportProps {
  importId: string;
  /** The import can be undone now (done, not undone yet); when false only an outcome or error still shows. */
  available: boolean;
  /** The Undo button's visible text. */
  text?: string;
  /** Its accessible name when the visible text alone is ambiguous (one per row of a list); starts with the text. */
  label?: string;
  /** After a successful undo (e.g. catch up the products it changed). */
  onUndone?: () => void;
}

/**
 * Undo one import: the button, then an inline confirmation saying what undo does (the app's
 * confirm pattern, as for ending a show), a busy state while it runs, then what it did: the
 * counts and the products it left as they are, with the reasons; or the server's error.
 */
export function UndoImport({ importId, available, text = "Undo", label, onUndone }: UndoImportProps) {
  const undo = useUndoImport();
  const [confirming, setConfirming] = useState(false);
  const id = useId();
  const triggerRef = useRef<HTMLButtonElement>(null);
  const keepRef = useRef<HTMLButtonElement>(null);
  const outcomeRef = useRef<HTMLDivElement>(null);
  // Where focus goes after the next render: the confirmation opened, was dismissed, or undo finished.
  const [focusNext, setFocusNext] = useState<"keep" | "trigger" | "outcome" | null>(null);

  useEffect(() => {
    if (!focusNext) return;
    const target = { keep: keepRef, trigger: triggerRef, outcome: outcomeRef }[focusNext].current;
    target?.focus();
    setFocusNext(null);
  }, [focusNext]);

  function run() {
    undo.mutate(importId, {
      onSuccess: () => {
        setConfirming(false);
        setFocusNext("outcome");
        onUndone?.();
      },
      onError: () => {
        setConfirming(false);
        setFocusNext("trigger");
      },
    });
  }

  const showTrigger = available && !undo.isSuccess && !confirming;
  if (!available && !undo.data && !undo.error) return null;

  return (
    <div className="flex flex-col gap-2">
      {showTrigger ? (
        <div>
          <Button
            ref={triggerRef}
            variant="outline"
            size="sm"
            aria-label={label}
            data-testid="undo-import"
            onClick={() => {
              undo.reset();
              setConfirming(true);
              setFocusNext("keep");
            }}
          >
            <Undo2 aria-hidden="true" className="h-4 w-4" />
            {text}
          </Button>
        </div>
      ) : null}
      {confirming ? (
        <div className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-50">
          <fieldset aria-describedby={`${id}-d`} data-testid="undo-confirm" className="flex min-w-0 flex-col gap-2">
            <legend className="mb-2 font-semibold">{UNDO_QUESTION}</legend>
            <p id={`${id}-d`}>{UNDO_EXPLAINED}</p>
            <div className="flex flex-wrap gap-2">
              <Button variant="danger" size="sm" disabled={undo.isPending} aria-busy={undo.isPending} onClick={run}>
                {undo.isPending ? <Loader2 aria-hidden="true" className="h-4 w-4 animate-spin" /> : null}
                {undo.isPending ? "Undoing..." : "Yes, undo import"}
              </Button>
              <Button
                ref={keepRef}
                variant="outline"
                size="sm"
                disabled={undo.isPending}
                onClick={() => {
                  setConfirming(false);
                  setFocusNext("trigger");
                }}
              >
                Keep import
              </Button>
            </div>
          </fieldset>
        </div>
      ) : null}
      {undo.error && !confirming ? (
        <p
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {UNDO_FAILED}: {messageOr(undo.error, "An error occurred")}
        </p>
      ) : null}
      {undo.data ? <UndoOutcome ref={outcomeRef} importId={importId} result={undo.data} /> : null}
    </div>
  );
}
