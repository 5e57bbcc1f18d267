import { Undo2 } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { TradeIn } from "../../../../contract/counter";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, TextField } from "../../../components/ui/field";
import { messageOr } from "../../../lib/http";
import { notify } from "../../notifications";
import { useMoney } from "../../settings";
import { useReverseTradeIn } from "../api/counter-api";

/** A manager's "Reverse" on an accepted trade-in (customer's page): a reason, then its stock and credit taken back by new entries. */
export function ReverseTradeIn({ tradeIn }: { tradeIn: TradeIn }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="outline" size="sm" aria-label={`Reverse trade-in #${tradeIn.number}`} onClick={() => setOpen(true)}>
        <Undo2 aria-hidden="true" className="h-4 w-4" />
        Reverse
      </Button>
      {open ? <ReverseDialog tradeIn={tradeIn} onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function ReverseDialog({ tradeIn, onClose }: { tradeIn: TradeIn; onClose: () => void }) {
  const money = useMoney();
  const reverse = useReverseTradeIn(tradeIn.id);
  const formId = useId();
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!reason.trim()) return setError("A reason is required");
    setError(null);
    reverse.mutate(reason.trim(), {
      onSuccess: () => {
        notify.success(`Trade-in #${tradeIn.number} reversed`);
        onClose();
      },
      onError: (err) => setError(messageOr(err, "Failed to reverse the trade-in")),
    });
  };
  const credit = tradeIn.credit_cents > 0 ? ` and ${money(tradeIn.credit_cents)} of store credit is taken back` : "";
  return (
    <Dialog
      title={`Reverse trade-in #${tradeIn.number}?`}
      description={`Its ${tradeIn.totals.units} cards go back out of stock${credit}, by new entries: nothing is deleted.`}
      onClose={onClose}
      busy={reverse.isPending}
      size="sm"
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={reverse.isPending}>
            Keep trade-in
          </Button>
          <Button variant="danger" type="submit" form={formId} disabled={reverse.isPending}>
            {reverse.isPending ? "Reversing..." : "Reverse trade-in"}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={submit} noValidate className="flex flex-col gap-2">
        <TextField label="Reason for reversing" value={reason} onChange={(e) => setReason(e.target.value)} />
        <FieldError>{error}</FieldError>
      </form>
    </Dialog>
  );
}
