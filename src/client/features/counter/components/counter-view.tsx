import { CheckCircle2, HandCoins, RotateCcw, ScanLine, SlidersHorizontal, Trash2, Undo2 } from "lucide-react";
import { useCallback, useEffect, useId, useRef, useState } from "react";
import {
  type Customer,
  type CustomerDetail,
  onlineListStatus,
  type Payout,
  type TradeIn,
  type TradeInBody,
  type TradeInLine,
} from "../../../../contract/counter";
import { centsToAmount, parseAmount } from "../../../../contract/money";
import type { Product } from "../../../../contract/products";
import { CONDITIONS, type Condition } from "../../../../contract/rules";
import { AccessDenied } from "../../../components/ui/access-denied";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { apiFetch, loadErrorText, messageOr } from "../../../lib/http";
import { useAuth } from "../../auth";
import { useMoney } from "../../settings";
import { acceptTradeIn, approveTradeIn, saveTradeIn, useDrafts, voidTradeIn } from "../api/counter-api";
import { receiptPdf, SHOP_NAME } from "../receipt-pdf";
import { BuySettingsDialog } from "./buy-settings";
import { CustomerPicker, customerName } from "./customer-picker";
import { FeedSearch } from "./feed-search";
import { PrintReceiptButton } from "./print-receipt-button";
import { ScanOrSearch } from "./scan-or-search";

export const CONDITION_SHORT: Record<Condition, string> = {
  "Near Mint": "NM",
  "Lightly Played": "LP",
  "Moderately Played": "MP",
  "Heavily Played": "HP",
  Damaged: "DMG",
  Sealed: "Sealed",
};
const PAYOUT_LABELS: Record<Payout, string> = { cash: "Cash", credit: "Store credit", split: "Split" };
const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");
/** A draft a customer sent from the public buylist (pending until the cards arrive and it is accepted). */
export const RECEIVED_ONLINE = "Received online";

/** An online list's status badge: Pending (not approved yet) or Approved (issue 40); nothing for a counter trade-in. */
function OnlineStatusBadge({ tradeIn }: { tradeIn: TradeIn }) {
  const status = onlineListStatus(tradeIn);
  if (status === null) return null;
  return (
    <>
      {" "}
      <Badge variant={status === "Pending" ? "warning" : "success"}>{status}</Badge>
    </>
  );
}

/** The Counter (inventory users, managers, super_admin): a trade-in built at the counter. */
export function CounterView() {
  const { permissions } = useAuth();
  if (!permissions.canManageProducts) return <AccessDenied text="You don't have permission to use the counter." />;
  return <Counter />;
}

interface Draft {
  tradeIn: TradeIn | null;
  customer: Customer | null;
  payout: Payout;
  /** A split's cash part as typed. */
  splitCash: string;
}
const EMPTY: Draft = { tradeIn: null, customer: null, payout: "cash", splitCash: "" };

/** What the server is sent for the draft: its lines as the server keeps them (offers set by hand kept), customer and payout. */
function bodyOf(draft: Draft): TradeInBody {
  const split = draft.payout === "split" ? (parseAmount(draft.splitCash) ?? 0) : undefined;
  return {
    customer_id: draft.customer?.id ?? null,
    lines: (draft.tradeIn?.lines ?? []).map((l) => ({
      product_id: l.product_id,
      condition: l.condition,
      quantity: l.quantity,
      struck: l.struck,
      ...(l.note === "Offer set by hand" ? { offer_cash_cents: l.offer_cash_cents, offer_credit_cents: l.offer_credit_cents } : {}),
    })),
    payout: draft.payout,
    ...(split === undefined ? {} : { cash_cents: split }),
    note: draft.tradeIn?.note ?? null,
  };
}

function Counter() {
  const id = useId();
  const money = useMoney();
  const [draft, setDraftState] = useState<Draft>(EMPTY);
  const latest = useRef<Draft>(EMPTY);
  const setDraft = useCallback((next: Draft) => {
    latest.current = next;
    setDraftState(next);
  }, []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(0);
  const [announcement, setAnnouncement] = useState("");
  const [confirmVoid, setConfirmVoid] = useState(false);
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const scanRef = useRef<HTMLInputElement>(null);
  const drafts = useDrafts();
  const [buySettings, setBuySettings] = useState(false);

  /**
   * Saves the draft with `change` made to what it holds now (changes wait for the one before: the
   * server's answer is the lines with their offers). A failure keeps the last saved draft and says why.
   */
  const save = useCallback(
    (change: (body: TradeInBody) => TradeInBody, local: Partial<Draft> = {}, after?: (t: TradeIn) => void) => {
      setBusy((n) => n + 1);
      const run = chain.current.then(async () => {
        const before = { ...latest.current, ...local };
        try {
          const saved = await saveTradeIn(before.tradeIn?.id ?? null, change(bodyOf(before)));
          setDraft({ ...before, tradeIn: saved });
          setError(null);
          after?.(saved);
          if (!before.tradeIn) void drafts.refetch();
        } catch (err) {
          setError(messageOr(err, "Failed to save the trade-in"));
        } finally {
          setBusy((n) => n - 1);
        }
      });
      chain.current = run;
      return run;
    },
    [setDraft, drafts],
  );

  const addProduct = useCallback(
    (product: Product) => {
      if (!product.is_active) {
        setError(`${product.product_name} is disabled: the shop cannot buy it until it is enabled again`);
        setAnnouncement(`${product.product_name} is disabled`);
        return;
      }
      const condition = product.condition ?? "Near Mint";
      void save(
        (body) => {
          const same = body.lines?.findIndex((l) => l.product_id === product.id && l.condition === condition && !l.struck) ?? -1;
          const lines = [...(body.lines ?? [])];
          const existing = lines[same];
          if (existing) lines[same] = { ...existing, quantity: existing.quantity + 1 };
          else lines.push({ product_id: product.id, condition, quantity: 1 });
          return { ...body, lines };
        },
        {},
        (saved) => {
          const line = [...saved.lines].reverse().find((l) => l.product_id === product.id);
          if (!line) return;
          const why = line.note ? ` (${line.note})` : "";
          setAnnouncement(
            line.struck
              ? `${line.product_name} struck: the shop does not buy it${why}`
              : `Added ${line.product_name}, ${line.quantity} at ${money(line.offer_cash_cents)} cash or ${money(line.offer_credit_cents)} credit each${why}`,
          );
        },
      );
    },
    [save, money],
  );

  const setLine = (index: number, patch: Partial<{ condition: Condition | null; quantity: number; struck: boolean }>) =>
    void save((body) => ({ ...body, lines: (body.lines ?? []).map((l, i) => (i === index ? { ...l, ...patch } : l)) }));

  // The customer and payout show at once; a draft is saved with them (a refusal is said, as for lines).
  const pickCustomer = (customer: Customer | null) => {
    setDraft({ ...latest.current, customer });
    if (latest.current.tradeIn) void save((body) => body);
  };
  const choosePayout = (payout: Payout) => {
    const cash = latest.current.tradeIn?.totals.cash_cents ?? 0;
    setDraft({ ...latest.current, payout, splitCash: payout === "split" ? centsToAmount(Math.floor(cash / 2)) : "" });
    if (latest.current.tradeIn) void save((body) => body);
  };
  const setSplitCash = (text: string) => {
    setDraft({ ...latest.current, splitCash: text });
    if (latest.current.tradeIn && parseAmount(text) !== undefined) void save((body) => body);
  };

  const startNew = () => {
    setDraft(EMPTY);
    setError(null);
    setAnnouncement("");
    void drafts.refetch();
    scanRef.current?.focus();
  };

  const resume = async (tradeIn: TradeIn) => {
    setError(null);
    let customer: Customer | null = null;
    try {
      if (tradeIn.customer_id !== null) customer = (await apiFetch<CustomerDetail>(`/api/customers/${tradeIn.customer_id}`)).customer;
    } catch (err) {
      setError(messageOr(err, "Failed to load the customer"));
    }
    setDraft({
      tradeIn,
      customer,
      payout: tradeIn.payout,
      splitCash: tradeIn.payout === "split" ? centsToAmount(tradeIn.cash_cents) : "",
    });
    setAnnouncement(`Trade-in #${tradeIn.number} resumed`);
    scanRef.current?.focus();
  };

  const accept = async () => {
    await chain.current;
    const current = latest.current.tradeIn;
    if (!current) return;
    setBusy((n) => n + 1);
    try {
      const accepted = await acceptTradeIn(current.id);
      setDraft({ ...latest.current, tradeIn: accepted });
      setError(null);
      setAnnouncement(`Trade-in #${accepted.number} accepted`);
      void drafts.refetch();
    } catch (err) {
      setError(messageOr(err, "Failed to accept the trade-in"));
    } finally {
      setBusy((n) => n - 1);
    }
  };

  /** Approves an online list (the draft open here, or one in the list), then shows it Approved. */
  const approve = async (target: TradeIn) => {
    await chain.current;
    setBusy((n) => n + 1);
    try {
      const approved = await approveTradeIn(target.id);
      if (latest.current.tradeIn?.id === approved.id) setDraft({ ...latest.current, tradeIn: approved });
      setError(null);
      setAnnouncement(`Trade-in #${approved.number} approved`);
      void drafts.refetch();
    } catch (err) {
      setError(messageOr(err, "Failed to approve the trade-in"));
    } finally {
      setBusy((n) => n - 1);
    }
  };

  const voidDraft = async () => {
    await chain.current;
    const current = latest.current.tradeIn;
    setConfirmVoid(false);
    if (!current) return;
    try {
      await voidTradeIn(current.id);
      startNew();
      setAnnouncement(`Trade-in #${current.number} voided`);
    } catch (err) {
      setError(messageOr(err, "Failed to void the trade-in"));
    }
  };

  const tradeIn = draft.tradeIn;
  const accepted = tradeIn?.status === "accepted";
  const saving = busy > 0;
  const creditNeedsCustomer = draft.payout !== "cash" && !draft.customer;
  const liveLines = tradeIn?.lines.filter((l) => !l.struck) ?? [];

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 id={`${id}-title`} className="flex items-center gap-2 text-2xl font-bold">
            <HandCoins aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
            Counter
          </h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">
            {tradeIn ? `Trade-in #${tradeIn.number} · ${tradeIn.status}` : "A new trade-in: scan or search the customer's cards."}
            {tradeIn?.source === "online" ? (
              <>
                {" "}
                <Badge variant="info">{RECEIVED_ONLINE}</Badge>
                <OnlineStatusBadge tradeIn={tradeIn} />
              </>
            ) : null}
          </p>
          {tradeIn && onlineListStatus(tradeIn) === "Pending" ? (
            <Button size="sm" variant="outline" className="mt-1" onClick={() => void approve(tradeIn)} disabled={saving}>
              <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
              Approve
            </Button>
          ) : null}
          {tradeIn?.source === "online" && tradeIn.note ? (
            <p className="break-words text-sm text-gray-700 dark:text-gray-300" data-testid="online-note">
              {tradeIn.note}
            </p>
          ) : null}
        </div>
        <div className="flex items-center gap-3">
          {saving ? (
            <p className="flex items-center gap-2 text-sm">
              <Spinner label="Saving" /> Saving...
            </p>
          ) : null}
          <Button variant="outline" onClick={() => setBuySettings(true)}>
            <SlidersHorizontal aria-hidden="true" className="size-4" /> Buy settings
          </Button>
        </div>
      </div>
      {buySettings ? <BuySettingsDialog onClose={() => setBuySettings(false)} /> : null}
      <p className="sr-only" aria-live="polite" data-testid="counter-announcement">
        {announcement}
      </p>
      {error ? (
        <div
          role="alert"
          className="rounded-xl border border-red-300 bg-red-50 p-3 font-medium text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
        >
          {error}
        </div>
      ) : null}

      {accepted && tradeIn ? (
        <AcceptedPanel tradeIn={tradeIn} customer={draft.customer} onNew={startNew} />
      ) : (
        <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
          <div className="flex flex-col gap-4 lg:col-span-2">
            <Card className="p-4">
              <ScanOrSearch
                inputRef={scanRef}
                onProduct={addProduct}
                onError={setError}
                label="Add cards"
                testId="scan-field"
                detail={(p) => <span className="font-mono">{p.barcode}</span>}
                noMatch={(q, add) => <FeedSearch key={q} q={q} onAdded={add} />}
              />
            </Card>
            <Card className="p-4">
              <h2 className="mb-2 text-lg font-bold">Cards</h2>
              {!tradeIn || tradeIn.lines.length === 0 ? (
                <p className="text-sm">No cards yet: scan a barcode or search by name.</p>
              ) : (
                <ul aria-label="Trade-in lines" className="flex flex-col divide-y divide-gray-200 dark:divide-gray-700">
                  {tradeIn.lines.map((line, index) => (
                    <LineRow key={line.id} line={line} index={index} onChange={(patch) => setLine(index, patch)} disabled={saving} />
                  ))}
                </ul>
              )}
            </Card>
          </div>
          <div className="flex flex-col gap-4">
            <Card className="p-4">
              <h2 className="mb-2 text-lg font-bold">Customer</h2>
              <CustomerPicker customer={draft.customer} onPick={pickCustomer} disabled={saving} />
            </Card>
            <Card className="flex flex-col gap-3 p-4">
              <h2 className="text-lg font-bold">Totals</h2>
              <dl className="grid grid-cols-2 gap-2 text-center" data-testid="totals">
                <div className="rounded-lg bg-gray-100 p-2 dark:bg-gray-800">
                  <dt className="text-sm">In cash</dt>
                  <dd className="text-xl font-bold" data-testid="total-cash">
                    {money(tradeIn?.totals.cash_cents ?? 0)}
                  </dd>
                </div>
                <div className="rounded-lg bg-gray-100 p-2 dark:bg-gray-800">
                  <dt className="text-sm">In store credit</dt>
                  <dd className="text-xl font-bold" data-testid="total-credit">
                    {money(tradeIn?.totals.credit_cents ?? 0)}
                  </dd>
                </div>
              </dl>
              <p className="text-sm">
                {liveLines.length} {liveLines.length === 1 ? "line" : "lines"}, {tradeIn?.totals.units ?? 0} cards
              </p>
              <fieldset className="flex flex-col gap-2">
                <legend className="mb-1 text-sm font-medium">The customer takes</legend>
                <div className="flex flex-wrap gap-3">
                  {(["cash", "credit", "split"] as const).map((p) => (
                    <label key={p} className="flex items-center gap-1.5">
                      <input
                        type="radio"
                        name={`${id}-payout`}
                        value={p}
                        checked={draft.payout === p}
                        onChange={() => choosePayout(p)}
                        className="h-4 w-4"
                      />
                      {PAYOUT_LABELS[p]}
                    </label>
                  ))}
                </div>
                {draft.payout === "split" ? (
                  <SplitCash
                    value={draft.splitCash}
                    onCommit={setSplitCash}
                    credit={tradeIn ? money(tradeIn.credit_cents) : null}
                    max={tradeIn ? money(tradeIn.totals.cash_cents) : null}
                  />
                ) : null}
                {creditNeedsCustomer ? (
                  <p className="text-sm text-amber-900 dark:text-amber-200">Store credit needs a customer: pick or create one.</p>
                ) : null}
              </fieldset>
              {tradeIn ? (
                <p className="text-sm" data-testid="payout">
                  Pay: {money(tradeIn.cash_cents)} cash{tradeIn.credit_cents > 0 ? `, ${money(tradeIn.credit_cents)} store credit` : ""}
                </p>
              ) : null}
              <div className="flex flex-wrap gap-2">
                <Button
                  variant="success"
                  size="lg"
                  onClick={() => void accept()}
                  disabled={!tradeIn || liveLines.length === 0 || saving || creditNeedsCustomer}
                >
                  <CheckCircle2 aria-hidden="true" className="h-5 w-5" />
                  Accept trade-in
                </Button>
                <Button variant="outline" onClick={startNew} disabled={!tradeIn || saving}>
                  Finish later
                </Button>
                <Button variant="danger" onClick={() => setConfirmVoid(true)} disabled={!tradeIn || saving}>
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                  Void
                </Button>
              </div>
            </Card>
          </div>
        </div>
      )}

      <DraftsList
        drafts={drafts}
        currentId={tradeIn?.id ?? null}
        onResume={(t) => void resume(t)}
        onApprove={(t) => void approve(t)}
        busy={saving}
      />

      {confirmVoid && tradeIn ? (
        <Dialog
          title={`Void trade-in #${tradeIn.number}?`}
          description="Nothing goes into stock and no credit is written. The draft stays on record as void."
          onClose={() => setConfirmVoid(false)}
          size="sm"
          focusFirstField={false}
          footer={
            <>
              <Button variant="outline" onClick={() => setConfirmVoid(false)}>
                Keep draft
              </Button>
              <Button variant="danger" onClick={() => void voidDraft()}>
                Void trade-in
              </Button>
            </>
          }
        />
      ) : null}
    </section>
  );
}

/** One line: product, condition, quantity, market, offers (per unit and for the line), why, strike. */
function LineRow({
  line,
  index,
  onChange,
  disabled,
}: {
  line: TradeInLine;
  index: number;
  onChange: (patch: Partial<{ condition: Condition | null; quantity: number; struck: boolean }>) => void;
  disabled: boolean;
}) {
  const money = useMoney();
  const name = line.product_name;
  const capped = line.note?.includes("buy limit") ?? false;
  const darklisted = line.note?.startsWith("Darklisted") ?? false;
  return (
    <li className={cn("flex flex-col gap-2 py-3", line.struck && "opacity-80")} data-testid="trade-in-line">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <p className={cn("min-w-0 break-words font-semibold", line.struck && "line-through")}>
          <span className="sr-only">Line {index + 1}: </span>
          {name}
          {line.struck ? <span className="sr-only"> (struck)</span> : null}
        </p>
        <div className="flex flex-wrap gap-1">
          {darklisted ? <Badge variant="danger">Darklisted</Badge> : null}
          {capped ? <Badge variant="warning">Capped</Badge> : null}
          {line.struck && !darklisted ? <Badge>Struck</Badge> : null}
        </div>
      </div>
      <div className="grid grid-cols-2 gap-2 sm:grid-cols-5 sm:items-end">
        <Field label="Condition">
          <select
            className={selectClassName}
            value={line.condition ?? ""}
            aria-label={`Condition of ${name}`}
            onChange={(e) => onChange({ condition: (e.target.value || null) as Condition | null })}
            disabled={disabled || line.struck}
          >
            {CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {CONDITION_SHORT[c]}
              </option>
            ))}
          </select>
        </Field>
        <QuantityInput
          name={name}
          value={line.quantity}
          saved={line}
          onCommit={(quantity) => onChange({ quantity })}
          disabled={disabled || line.struck}
        />
        <div className="text-sm">
          <p className="text-gray-700 dark:text-gray-300">Market</p>
          <p className="font-medium">{line.market_cents === null ? "none" : money(line.market_cents)}</p>
        </div>
        <div className="text-sm">
          <p className="text-gray-700 dark:text-gray-300">Cash</p>
          <p className="font-medium" data-testid="line-cash">
            {money(line.offer_cash_cents * line.quantity)}
            {line.quantity > 1 ? <span className="block text-xs font-normal">{money(line.offer_cash_cents)} each</span> : null}
          </p>
        </div>
        <div className="text-sm">
          <p className="text-gray-700 dark:text-gray-300">Credit</p>
          <p className="font-medium" data-testid="line-credit">
            {money(line.offer_credit_cents * line.quantity)}
            {line.quantity > 1 ? <span className="block text-xs font-normal">{money(line.offer_credit_cents)} each</span> : null}
          </p>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {line.note ? <p className="text-sm text-gray-700 dark:text-gray-300">{line.note}</p> : <span />}
        {darklisted ? null : (
          <Button
            variant="outline"
            size="sm"
            onClick={() => onChange({ struck: !line.struck })}
            disabled={disabled}
            aria-label={`${line.struck ? "Restore" : "Strike"} ${name}`}
          >
            {line.struck ? <Undo2 aria-hidden="true" className="h-4 w-4" /> : <Trash2 aria-hidden="true" className="h-4 w-4" />}
            {line.struck ? "Restore" : "Strike"}
          </Button>
        )}
      </div>
    </li>
  );
}

/** A quantity typed, saved when it leaves the field or on Enter (a whole number of 1 or more). */
function QuantityInput({
  name,
  value,
  saved,
  onCommit,
  disabled,
}: {
  name: string;
  value: number;
  /** The line as last saved: each answer shows its quantity again (one capped by the buy limit too). */
  saved: TradeInLine;
  onCommit: (n: number) => void;
  disabled: boolean;
}) {
  const [text, setText] = useState(String(value));
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new answer for the line resets the field even when its quantity did not change
  useEffect(() => setText(String(value)), [value, saved]);
  const commit = () => {
    const n = Number(text);
    if (Number.isInteger(n) && n >= 1 && n !== value) onCommit(n);
    else setText(String(value));
  };
  return (
    <Field label="Quantity">
      <input
        className={selectClassName}
        type="number"
        inputMode="numeric"
        min={1}
        value={text}
        aria-label={`Quantity of ${name}`}
        onChange={(e) => setText(e.target.value)}
        onBlur={commit}
        onKeyDown={(e) => {
          if (e.key === "Enter") {
            e.preventDefault();
            commit();
          }
        }}
        disabled={disabled}
      />
    </Field>
  );
}

function SplitCash({
  value,
  onCommit,
  credit,
  max,
}: {
  value: string;
  onCommit: (text: string) => void;
  credit: string | null;
  max: string | null;
}) {
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const invalid = text.trim() !== "" && parseAmount(text) === undefined;
  return (
    <div className="flex flex-col gap-1">
      <Field
        label="Cash part"
        error={invalid ? "Enter an amount such as 12.50" : undefined}
        hint={max ? `Up to ${max}; the rest is paid in credit${credit ? ` (${credit})` : ""}.` : undefined}
      >
        <input
          className={selectClassName}
          inputMode="decimal"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onBlur={() => onCommit(text)}
          onKeyDown={(e) => {
            if (e.key === "Enter") {
              e.preventDefault();
              onCommit(text);
            }
          }}
        />
      </Field>
    </div>
  );
}

/** After acceptance: what was bought and paid, the receipt to print, and a new trade-in. */
function AcceptedPanel({ tradeIn, customer, onNew }: { tradeIn: TradeIn; customer: Customer | null; onNew: () => void }) {
  const money = useMoney();
  return (
    <Card className="flex flex-col gap-3 p-4" data-testid="accepted-trade-in">
      <h2 className="flex items-center gap-2 text-lg font-bold">
        <CheckCircle2 aria-hidden="true" className="h-6 w-6 text-green-700 dark:text-green-400" />
        Trade-in #{tradeIn.number} accepted
      </h2>
      <p>
        {tradeIn.totals.units} cards into stock. Paid {money(tradeIn.cash_cents)} in cash
        {tradeIn.credit_cents > 0 ? ` and ${money(tradeIn.credit_cents)} in store credit` : ""}
        {customer ? ` to ${customerName(customer)}` : ""}.
      </p>
      <div className="flex flex-wrap gap-2">
        <PrintReceiptButton
          filename={`trade-in-${tradeIn.number}.pdf`}
          make={() =>
            receiptPdf({
              shopName: SHOP_NAME,
              tradeIn,
              customer: customer ? customerName(customer) : null,
              money,
              date: new Date(tradeIn.accepted_at ?? tradeIn.created_at),
            })
          }
        />
        <Button variant="outline" onClick={onNew}>
          <ScanLine aria-hidden="true" className="h-4 w-4" />
          New trade-in
        </Button>
      </div>
    </Card>
  );
}

function DraftsList({
  drafts,
  currentId,
  onResume,
  onApprove,
  busy,
}: {
  drafts: ReturnType<typeof useDrafts>;
  currentId: number | null;
  onResume: (t: TradeIn) => void;
  onApprove: (t: TradeIn) => void;
  busy: boolean;
}) {
  const money = useMoney();
  const open = (drafts.data ?? []).filter((d) => d.id !== currentId);
  return (
    <Card className="p-4">
      <h2 className="mb-2 text-lg font-bold">Open drafts</h2>
      {drafts.isPending ? (
        <p className="flex items-center gap-2 text-sm">
          <Spinner label="Loading drafts" /> Loading drafts...
        </p>
      ) : drafts.isError ? (
        <div className="flex flex-wrap items-center gap-2">
          <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
            {loadErrorText(drafts.error)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void drafts.refetch()}>
            <RotateCcw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : open.length === 0 ? (
        <p className="text-sm">No other drafts.</p>
      ) : (
        <ul aria-label="Open drafts" className="flex flex-col gap-2">
          {open.map((d) => (
            <li
              key={d.id}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 p-2 dark:border-gray-700"
            >
              <span className="text-sm">
                <span className="font-semibold">Trade-in #{d.number}</span>
                {d.source === "online" ? (
                  <>
                    {" "}
                    <Badge variant="info">{RECEIVED_ONLINE}</Badge>
                    <OnlineStatusBadge tradeIn={d} />
                  </>
                ) : null}{" "}
                · {d.totals.units} cards · {money(d.totals.cash_cents)} cash / {money(d.totals.credit_cents)} credit ·{" "}
                {new Date(d.created_at).toLocaleString()} by {d.created_by}
              </span>
              <span className="flex gap-2">
                {onlineListStatus(d) === "Pending" ? (
                  <Button
                    size="sm"
                    variant="outline"
                    onClick={() => onApprove(d)}
                    disabled={busy}
                    aria-label={`Approve trade-in #${d.number}`}
                  >
                    Approve
                  </Button>
                ) : null}
                <Button size="sm" variant="outline" onClick={() => onResume(d)} aria-label={`Resume trade-in #${d.number}`}>
                  Resume
                </Button>
              </span>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
