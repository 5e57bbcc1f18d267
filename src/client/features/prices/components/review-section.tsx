import { CheckCheck, RefreshCw } from "lucide-react";
import { useEffect, useId, useMemo, useRef, useState } from "react";
import type { PriceProposal } from "../../../../contract/prices";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText } from "../../../lib/http";
import { useMoney } from "../../settings";
import { useProposals } from "../api/list-proposals";
import { useAcceptWithUndo } from "../hooks/use-accept-with-undo";
import { changeText, pricesText } from "../proposal-text";
import { Panel } from "./panel";
import { ShowMore } from "./show-more";

const count = (n: number) => n.toLocaleString("en-US");

/**
 * The proposals waiting for review, the most money at stake first: each with its old and new
 * price, the market, the move (big ones flagged) and why, step by step. Accept some or all; the
 * message that follows can undo them.
 */
export function ReviewSection() {
  const id = useId();
  const [bigOnly, setBigOnly] = useState(false);
  const list = useProposals(bigOnly);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [confirmAll, setConfirmAll] = useState(false);
  const { acceptProposals, accepting } = useAcceptWithUndo();

  // Only what is on screen can be chosen: a proposal decided meanwhile drops out of the choice.
  const shown = list.proposals;
  const chosen = useMemo(() => shown.filter((p) => selected.has(p.id)).map((p) => p.id), [shown, selected]);
  const toggle = (proposalId: number, on: boolean) =>
    setSelected((s) => {
      const next = new Set(s);
      if (on) next.add(proposalId);
      else next.delete(proposalId);
      return next;
    });
  const toggleAll = (on: boolean) => setSelected(on ? new Set(shown.map((p) => p.id)) : new Set());

  const acceptSelected = async () => {
    if (await acceptProposals({ ids: chosen })) setSelected(new Set());
  };
  const acceptAll = async () => {
    if (await acceptProposals({ all: true })) {
      setSelected(new Set());
      setConfirmAll(false);
    }
  };

  const waiting = list.isSuccess ? (
    <p className="text-sm text-gray-700 dark:text-gray-300" aria-live="polite">
      {list.total === 0
        ? "Nothing waiting for review."
        : `${pricesText(list.total)} waiting for review, ${count(list.big)} of them ${list.big === 1 ? "a big move" : "big moves"}.`}
    </p>
  ) : null;

  return (
    <Panel
      titleId={`${id}-title`}
      title="Review new prices"
      description="What the rules propose from the latest market prices, the most money at stake first. Nothing changes until you accept."
      testId="prices-review"
    >
      {list.isPending ? (
        <div className="flex items-center gap-2 p-4">
          <Spinner label="Loading proposals" />
          Loading proposals...
        </div>
      ) : list.isError ? (
        <div className="flex flex-col items-start gap-2 p-2">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(list.error)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void list.refetch()} disabled={list.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : (
        <>
          {waiting}
          <div className="flex flex-wrap items-center gap-2">
            <label className="mr-auto flex items-center gap-2 text-sm font-medium">
              <input type="checkbox" checked={bigOnly} onChange={(e) => setBigOnly(e.target.checked)} className="h-4 w-4" />
              Big moves only
            </label>
            <Button size="sm" onClick={() => void acceptSelected()} disabled={chosen.length === 0 || accepting}>
              <CheckCheck aria-hidden="true" className="h-4 w-4" />
              Accept selected ({count(chosen.length)})
            </Button>
            <Button size="sm" variant="outline" onClick={() => setConfirmAll(true)} disabled={list.total === 0 || accepting}>
              Accept all ({count(list.total)})
            </Button>
          </div>
          {shown.length === 0 ? (
            <p className="rounded-lg border border-gray-200 p-4 text-center text-sm dark:border-gray-700">
              {bigOnly && list.total > 0
                ? "No big moves waiting for review."
                : "No new prices to review. They appear here after a feed's file is read, or the rules change."}
            </p>
          ) : (
            <ProposalsTable proposals={shown} selected={selected} onToggle={toggle} onToggleAll={toggleAll} />
          )}
          <ShowMore shown={shown.length} total={bigOnly ? list.big : list.total} list={list} />
        </>
      )}
      {confirmAll ? (
        <Dialog
          onClose={() => setConfirmAll(false)}
          title={`Accept all ${pricesText(list.total)}?`}
          description="Every proposal waiting for review is written, big moves included, not only those shown. The message that follows can undo it."
          busy={accepting}
          size="sm"
          footer={
            <>
              <Button variant="outline" onClick={() => setConfirmAll(false)} disabled={accepting}>
                Cancel
              </Button>
              <Button onClick={() => void acceptAll()} disabled={accepting}>
                {accepting ? "Accepting..." : `Accept all (${count(list.total)})`}
              </Button>
            </>
          }
        />
      ) : null}
    </Panel>
  );
}

interface ProposalsTableProps {
  proposals: PriceProposal[];
  selected: ReadonlySet<number>;
  onToggle: (id: number, on: boolean) => void;
  onToggleAll: (on: boolean) => void;
}

const cell = "px-2 py-1.5 align-top";
const numeric = cn(cell, "text-right tabular-nums whitespace-nowrap");

function ProposalsTable({ proposals, selected, onToggle, onToggleAll }: ProposalsTableProps) {
  const money = useMoney();
  const chosen = proposals.filter((p) => selected.has(p.id)).length;
  const all = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (all.current) all.current.indeterminate = chosen > 0 && chosen < proposals.length;
  }, [chosen, proposals.length]);
  return (
    <section
      aria-label="Proposed prices"
      // relative: the rows' screen-reader-only words are placed inside it, not stretching the page.
      className="relative overflow-x-auto rounded-md border border-gray-200 dark:border-gray-700"
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
      tabIndex={0}
    >
      <table className="w-full border-collapse text-sm" data-testid="proposals-table">
        <caption className="sr-only">Proposed prices, the most money at stake first</caption>
        <thead className="bg-gray-50 dark:bg-gray-800">
          <tr>
            <th scope="col" className={cell}>
              <input
                ref={all}
                type="checkbox"
                aria-label="Select all shown"
                className="h-4 w-4"
                checked={chosen > 0 && chosen === proposals.length}
                onChange={(e) => onToggleAll(e.target.checked)}
              />
            </th>
            <th scope="col" className={cn(cell, "text-left")}>
              Product
            </th>
            <th scope="col" className={cn(numeric, "font-semibold")}>
              Old price
            </th>
            <th scope="col" className={cn(numeric, "font-semibold")}>
              New price
            </th>
            <th scope="col" className={cn(numeric, "font-semibold")}>
              Market
            </th>
            <th scope="col" className={cn(numeric, "font-semibold")}>
              Change
            </th>
            <th scope="col" className={cn(numeric, "font-semibold")}>
              At stake
            </th>
            <th scope="col" className={cn(cell, "text-left")}>
              Why
            </th>
          </tr>
        </thead>
        <tbody>
          {proposals.map((p) => (
            <tr
              key={p.id}
              data-testid="proposal-row"
              data-barcode={p.barcode}
              className={cn("border-t border-gray-200 dark:border-gray-700", p.big && "bg-amber-50 dark:bg-amber-950/40")}
            >
              <td className={cell}>
                <input
                  type="checkbox"
                  aria-label={`Select ${p.product_name}`}
                  className="h-4 w-4"
                  checked={selected.has(p.id)}
                  onChange={(e) => onToggle(p.id, e.target.checked)}
                />
              </td>
              <th scope="row" className={cn(cell, "min-w-36 text-left font-medium")}>
                <span className="break-words">{p.product_name}</span>
                <span className="block font-mono text-xs font-normal text-gray-700 dark:text-gray-300">{p.barcode}</span>
                {/* Beside the name, not the change: seen first, also on a phone where the later columns scroll. */}
                {p.big ? (
                  <Badge variant="warning" className="mt-0.5">
                    Big move
                  </Badge>
                ) : null}
              </th>
              <td className={numeric}>
                {p.old_price === null ? <span className="text-gray-700 dark:text-gray-300">None</span> : money(p.old_price)}
              </td>
              <td className={cn(numeric, "font-semibold")}>{money(p.new_price)}</td>
              <td className={numeric}>
                {money(p.market)}
                {p.estimated ? (
                  <span className="block text-xs text-gray-700 dark:text-gray-300" title="Estimated from the Near Mint price">
                    estimated
                  </span>
                ) : null}
              </td>
              <td className={numeric}>{changeText(p.change_percent)}</td>
              <td className={numeric}>{money(p.at_stake)}</td>
              <td className={cn(cell, "min-w-20")}>
                <details>
                  <summary className="cursor-pointer font-medium text-blue-700 underline-offset-2 hover:underline dark:text-blue-400">
                    Why<span className="sr-only"> {p.product_name}</span>
                  </summary>
                  <ol className="mt-1 flex min-w-56 list-decimal flex-col gap-0.5 pl-5 text-xs">
                    {p.steps.map((step) => (
                      <li key={step.rule}>{step.text}</li>
                    ))}
                  </ol>
                </details>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
