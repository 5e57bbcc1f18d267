import { CloudOff, Undo2 } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { type LastTap as LastTapState, lastTapText } from "../hooks/use-quantity-taps";

/**
 * The last tap under the SOLD/ADD buttons, in the page rather than a floating toast, so it never
 * covers the buttons or the recent list on a phone: what it did (or that it waits for the
 * server) and its Undo.
 */
export function LastTap({ last, onUndo }: { last: LastTapState | null; onUndo: () => void }) {
  return (
    <div role="status" aria-live="polite" className="min-h-0" data-testid="last-tap">
      {last ? (
        <div className="mt-3 flex items-center justify-between gap-3 rounded-lg bg-gray-100 px-3 py-2 text-sm dark:bg-gray-800">
          <p className="flex min-w-0 items-center gap-1.5 font-medium break-words">
            {last.applied ? null : <CloudOff aria-hidden="true" className="h-4 w-4 shrink-0 text-amber-700 dark:text-amber-300" />}
            {lastTapText(last)}
          </p>
          {last.undo ? null : (
            <Button variant="outline" size="sm" onClick={onUndo}>
              <Undo2 aria-hidden="true" className="h-4 w-4" />
              Undo
            </Button>
          )}
        </div>
      ) : null}
    </div>
  );
}
