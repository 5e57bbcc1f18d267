import { useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { useUndoImport } from "../../csv";
import { failureText, notify } from "../../notifications";
import { type AcceptWhich, useAcceptProposals } from "../api/accept-proposals";
import { priceKeys } from "../api/keys";
import { waitForImport } from "../api/wait-for-import";
import { pricesText } from "../proposal-text";

/**
 * The message of accepted prices stays until it is closed: its Undo waits while the manager
 * checks the new prices on other screens (later, the CSV dialog's recent imports undo them too).
 */
const ACCEPT_UNDO_MS = Number.POSITIVE_INFINITY;
export const ACCEPT_FAILED = "Failed to accept the new prices";
export const UNDO_FAILED = "Failed to put the old prices back";

/**
 * Accepting proposals: the new prices are written as one import, said in a message with Undo.
 * Undo waits until the import has written them, then undoes it (a price someone changed since
 * stays, and is named). A row the import left out (a price changed since the proposal) is named too.
 */
export function useAcceptWithUndo() {
  const queryClient = useQueryClient();
  const accept = useAcceptProposals();
  const undo = useUndoImport();
  const { mutateAsync: undoImport } = undo;

  const undoAccepted = useCallback(
    async (importId: string) => {
      const id = `undo-prices-${importId}`;
      notify.info("Putting the old prices back...", { id });
      try {
        const job = await waitForImport(importId);
        if (job.status === "failed") {
          notify.info("The new prices were not written: nothing to put back", { id });
          return;
        }
        const result = await undoImport(importId);
        notify.success(`Old prices back on ${result.reverted.toLocaleString("en-US")} ${result.reverted === 1 ? "product" : "products"}`, {
          id,
        });
        const [first] = result.not_reverted;
        if (first) {
          const more = result.not_reverted.length - 1;
          notify.warning(`${first.product_name}: ${first.reason}${more > 0 ? ` (and ${more.toLocaleString("en-US")} more)` : ""}`);
        }
      } catch (err) {
        notify.error(failureText(UNDO_FAILED, err), { id });
      } finally {
        void queryClient.invalidateQueries({ queryKey: priceKeys.proposals });
      }
    },
    [undoImport, queryClient],
  );

  /** Tells what the import could not write, once it has finished (it runs on after the answer). */
  const reportImport = useCallback(async (importId: string) => {
    try {
      const job = await waitForImport(importId);
      const problems = job.status === "failed" ? [job.error ?? "The import failed"] : (job.result?.errors ?? []);
      const [first] = problems;
      if (first)
        notify.warning(`Not every new price was written: ${first}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`);
    } catch {
      // The prices are written on the server whether or not this screen hears how it went.
    }
  }, []);

  /** Accepts `which`; resolves true once the server took them. */
  const acceptProposals = useCallback(
    async (which: AcceptWhich): Promise<boolean> => {
      try {
        const answer = await accept.mutateAsync(which);
        notify.success(`Accepted ${pricesText(answer.accepted)}`, {
          duration: ACCEPT_UNDO_MS,
          action: { label: "Undo", onClick: () => void undoAccepted(answer.import_id) },
        });
        void reportImport(answer.import_id);
        return true;
      } catch (err) {
        notify.error(failureText(ACCEPT_FAILED, err));
        return false;
      }
    },
    [accept.mutateAsync, undoAccepted, reportImport],
  );

  return { acceptProposals, accepting: accept.isPending, undoing: undo.isPending };
}
