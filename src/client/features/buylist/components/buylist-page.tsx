import { CheckCircle2, Minus, Plus, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useId, useRef, useState } from "react";
import {
  BUYLIST_HONEYPOT,
  BUYLIST_LINES_MAX,
  type BuylistItem,
  type BuylistReceipt,
  buylistSubmissionSchema,
} from "../../../../contract/buylist";
import { formatMoney } from "../../../../contract/money";
import type { Condition } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Field, FieldError, inputClassName, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText, messageOr } from "../../../lib/http";
import { ThemeToggle } from "../../theme";
import { BUYLIST_PAGE_SIZE, sendBuylist, useBuylist } from "../api/buylist-api";

/** One card on the customer's list: the card as the buylist showed it, the condition and how many. */
interface Line {
  item: BuylistItem;
  condition: Condition;
  quantity: number;
}

interface Contact {
  name: string;
  email: string;
  phone: string;
  payout: "credit" | "cash";
  note: string;
  [BUYLIST_HONEYPOT]: string;
}

const EMPTY_CONTACT: Contact = { name: "", email: "", phone: "", payout: "credit", note: "", [BUYLIST_HONEYPOT]: "" };
const lineKey = (l: { item: BuylistItem; condition: Condition }) => `${l.item.product_id}:${l.condition}`;
const offerOf = (l: Line) => l.item.offers.find((o) => o.condition === l.condition) ?? l.item.offers[0];
const details = (item: BuylistItem) => [item.set_name, item.card_number ? `#${item.card_number}` : null].filter(Boolean).join(" · ");
/** Units of a card already on the list, in every condition. */
const unitsOf = (lines: Line[], productId: number) => lines.reduce((s, l) => (l.item.product_id === productId ? s + l.quantity : s), 0);

/**
 * The public buylist (/buylist, no sign-in): what the shop is buying and at what price, a list of
 * the customer's cards built from it, and their contact details; sent, the shop receives it as a
 * pending trade-in. Shows offers and the most the shop takes of a card, never stock or costs.
 */
export function BuylistPage() {
  const [lines, setLines] = useState<Line[]>([]);
  const [currency, setCurrency] = useState("USD");
  const [receipt, setReceipt] = useState<BuylistReceipt | null>(null);
  const money = (cents: number) => formatMoney(cents, currency);
  const doneRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = "Sell us your cards";
  }, []);
  useEffect(() => {
    if (receipt) doneRef.current?.focus();
  }, [receipt]);

  const add = (item: BuylistItem, condition: Condition, quantity: number) => {
    setLines((now) => {
      const existing = now.find((l) => lineKey(l) === lineKey({ item, condition }));
      if (existing) return now.map((l) => (l === existing ? { ...l, quantity: l.quantity + quantity } : l));
      return [...now, { item, condition, quantity }];
    });
  };

  return (
    <div className="min-h-dvh bg-gray-100 text-gray-900 dark:bg-gray-950 dark:text-gray-50">
      <header className="border-b border-gray-300 bg-white dark:border-gray-700 dark:bg-gray-900">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-3 py-3 sm:px-4">
          <p className="text-lg font-bold">Blez Inventory</p>
          <ThemeToggle />
        </div>
      </header>
      <main className="mx-auto flex max-w-5xl flex-col gap-4 px-3 py-4 sm:px-4">
        {receipt ? (
          <section aria-labelledby="buylist-done" className="rounded-xl bg-white p-4 shadow-sm dark:bg-gray-900" role="status">
            <h1 id="buylist-done" ref={doneRef} tabIndex={-1} className="flex items-center gap-2 text-2xl font-bold outline-none">
              <CheckCircle2 aria-hidden="true" className="size-7 text-green-700 dark:text-green-400" />
              Thank you: we have your list
            </h1>
            <p className="mt-2">
              Your reference is <strong>#{receipt.reference}</strong>. Bring or send the cards and quote it: we check them and confirm the
              offer when they arrive.
            </p>
            <p className="mt-2">
              {receipt.units} {receipt.units === 1 ? "card" : "cards"}, offered at today's prices {money(receipt.credit_cents)} in store
              credit or {money(receipt.cash_cents)} in cash.
            </p>
            <Button
              className="mt-4"
              onClick={() => {
                setLines([]);
                setReceipt(null);
              }}
            >
              Start a new list
            </Button>
          </section>
        ) : (
          <>
            <div>
              <h1 className="text-2xl font-bold">Sell us your cards</h1>
              <p className="mt-1 text-gray-700 dark:text-gray-300">
                Find your cards, add them to your list with their condition, and send it: we answer with the cards in hand.
              </p>
            </div>
            <Catalogue lines={lines} money={money} onCurrency={setCurrency} onAdd={add} />
            <YourList lines={lines} money={money} onChange={setLines} onSent={setReceipt} />
          </>
        )}
      </main>
    </div>
  );
}

/** Search and pages of what the shop buys, each card with its offers and an Add to list. */
function Catalogue({
  lines,
  money,
  onCurrency,
  onAdd,
}: {
  lines: Line[];
  money: (cents: number) => string;
  onCurrency: (currency: string) => void;
  onAdd: (item: BuylistItem, condition: Condition, quantity: number) => void;
}) {
  const [typed, setTyped] = useState("");
  const [q, setQ] = useState("");
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const timer = setTimeout(() => {
      setQ(typed.trim());
      setOffset(0);
    }, 250);
    return () => clearTimeout(timer);
  }, [typed]);
  const list = useBuylist(q, offset);
  const currency = list.data?.currency;
  useEffect(() => {
    if (currency) onCurrency(currency);
  }, [currency, onCurrency]);
  const items = list.data?.items ?? [];

  return (
    <section aria-labelledby="buylist-cards" className="rounded-xl bg-white p-3 shadow-sm sm:p-4 dark:bg-gray-900">
      <h2 id="buylist-cards" className="text-xl font-semibold">
        What we are buying
      </h2>
      <form
        className="mt-3"
        onSubmit={(e) => {
          e.preventDefault();
          setQ(typed.trim());
          setOffset(0);
        }}
      >
        <TextField label="Search cards by name or set" type="search" value={typed} onChange={(e) => setTyped(e.target.value)} />
      </form>
      <div aria-live="polite" className="mt-3">
        {list.isPending ? (
          <p className="flex items-center gap-2">
            <Spinner label="Loading cards" /> Loading cards...
          </p>
        ) : list.isError ? (
          <div role="alert" className="flex flex-col items-start gap-2">
            <p className="font-medium text-red-800 dark:text-red-200">{loadErrorText(list.error)}</p>
            <Button variant="outline" onClick={() => list.refetch()}>
              Try again
            </Button>
          </div>
        ) : items.length === 0 ? (
          <p>{q ? `No cards we are buying match "${q}".` : "We are not buying any cards right now."}</p>
        ) : (
          <p className="sr-only">
            {items.length} {items.length === 1 ? "card" : "cards"} shown
          </p>
        )}
      </div>
      {items.length > 0 ? (
        <ul className="mt-2 flex flex-col divide-y divide-gray-200 dark:divide-gray-700" aria-label="Cards we are buying">
          {items.map((item) => (
            <CardRow
              key={item.product_id}
              item={item}
              money={money}
              left={item.max_quantity - unitsOf(lines, item.product_id)}
              onAdd={onAdd}
            />
          ))}
        </ul>
      ) : null}
      {offset > 0 || list.data?.has_more ? (
        <nav aria-label="Pages of cards" className="mt-3 flex justify-between gap-2">
          <Button variant="outline" disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - BUYLIST_PAGE_SIZE))}>
            Previous
          </Button>
          <Button variant="outline" disabled={!list.data?.has_more} onClick={() => setOffset(offset + BUYLIST_PAGE_SIZE)}>
            Next
          </Button>
        </nav>
      ) : null}
    </section>
  );
}

function CardRow({
  item,
  money,
  left,
  onAdd,
}: {
  item: BuylistItem;
  money: (cents: number) => string;
  left: number;
  onAdd: (item: BuylistItem, condition: Condition, quantity: number) => void;
}) {
  const id = useId();
  const [condition, setCondition] = useState<Condition>(item.offers[0]?.condition ?? "Near Mint");
  const [quantity, setQuantity] = useState("1");
  const [error, setError] = useState<string | null>(null);
  const add = () => {
    const n = Number(quantity);
    if (!Number.isInteger(n) || n < 1) return setError("Quantity must be a whole number of 1 or more");
    if (n > left)
      return setError(left > 0 ? `We take at most ${left} more of this card` : "This card is on your list as many times as we take it");
    setError(null);
    onAdd(item, condition, n);
    setQuantity("1");
  };
  return (
    <li className="flex flex-col gap-2 py-3 sm:flex-row sm:items-end sm:justify-between" data-testid="buylist-card">
      <div className="min-w-0">
        <p className="break-words font-semibold" id={`${id}-name`}>
          {item.product_name}
        </p>
        <p className="text-sm text-gray-700 dark:text-gray-300">{[item.vendor, details(item)].filter(Boolean).join(" · ")}</p>
        <ul className="mt-1 text-sm">
          {item.offers.map((o) => (
            <li key={o.condition}>
              {o.condition}: <strong>{money(o.credit_cents)}</strong> credit or <strong>{money(o.cash_cents)}</strong> cash
            </li>
          ))}
        </ul>
        <p className="text-sm text-gray-700 dark:text-gray-300">Up to {item.max_quantity} per list</p>
      </div>
      <div className="flex flex-wrap items-end gap-2">
        <Field label="Condition">
          <select
            className={cn(inputClassName, "w-auto border-gray-400 dark:border-gray-600")}
            value={condition}
            onChange={(e) => setCondition(e.target.value as Condition)}
            aria-describedby={`${id}-name`}
          >
            {item.offers.map((o) => (
              <option key={o.condition} value={o.condition}>
                {o.condition}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={1}
          max={item.max_quantity}
          className="w-20"
          value={quantity}
          onChange={(e) => setQuantity(e.target.value)}
          aria-describedby={`${id}-name`}
        />
        <Button onClick={add} aria-label={`Add ${item.product_name} to my list`} disabled={left <= 0}>
          <Plus aria-hidden="true" className="size-4" /> Add
        </Button>
      </div>
      {error ? <FieldError>{error}</FieldError> : null}
    </li>
  );
}

type Errors = Partial<Record<"name" | "email" | "phone" | "note" | "lines" | "form", string>>;

/** The customer's list, the totals, the contact fields and Send. */
function YourList({
  lines,
  money,
  onChange,
  onSent,
}: {
  lines: Line[];
  money: (cents: number) => string;
  onChange: (lines: Line[]) => void;
  onSent: (receipt: BuylistReceipt) => void;
}) {
  const [contact, setContact] = useState<Contact>(EMPTY_CONTACT);
  const [errors, setErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const set = (field: keyof Contact, value: string) => setContact((c) => ({ ...c, [field]: value }));
  const totals = lines.reduce(
    (t, l) => {
      const offer = offerOf(l);
      return { cash: t.cash + (offer?.cash_cents ?? 0) * l.quantity, credit: t.credit + (offer?.credit_cents ?? 0) * l.quantity };
    },
    { cash: 0, credit: 0 },
  );
  const units = lines.reduce((s, l) => s + l.quantity, 0);

  const setQuantity = (line: Line, quantity: number) => {
    const left = line.item.max_quantity - unitsOf(lines, line.item.product_id) + line.quantity;
    const next = Math.min(Math.max(1, quantity), left);
    onChange(lines.map((l) => (l === line ? { ...l, quantity: next } : l)));
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const body = {
      ...contact,
      lines: lines.map((l) => ({ product_id: l.item.product_id, condition: l.condition, quantity: l.quantity })),
    };
    const parsed = buylistSubmissionSchema.safeParse(body);
    if (!parsed.success) {
      const found: Errors = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] === "lines" ? "lines" : (issue.path[0] as keyof Errors);
        if (field && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    setSending(true);
    try {
      onSent(await sendBuylist(body));
      setContact(EMPTY_CONTACT);
    } catch (err) {
      setErrors({ form: messageOr(err, "Your list could not be sent. Please try again.") });
    } finally {
      setSending(false);
    }
  };

  return (
    <section aria-labelledby="buylist-yours" className="rounded-xl bg-white p-3 shadow-sm sm:p-4 dark:bg-gray-900">
      <h2 id="buylist-yours" className="text-xl font-semibold">
        Your list
      </h2>
      {lines.length === 0 ? (
        <p className="mt-2 text-gray-700 dark:text-gray-300">No cards yet: add them from the list above.</p>
      ) : (
        <>
          <ul className="mt-2 flex flex-col divide-y divide-gray-200 dark:divide-gray-700" aria-label="Cards on your list">
            {lines.map((line) => {
              const offer = offerOf(line);
              const name = `${line.item.product_name}, ${line.condition}`;
              return (
                <li key={lineKey(line)} className="flex flex-wrap items-center justify-between gap-2 py-2" data-testid="buylist-line">
                  <div className="min-w-0">
                    <p className="break-words font-semibold">{line.item.product_name}</p>
                    <p className="text-sm text-gray-700 dark:text-gray-300">
                      {line.condition} · {money(offer?.credit_cents ?? 0)} credit or {money(offer?.cash_cents ?? 0)} cash each
                    </p>
                  </div>
                  <div className="flex items-center gap-1">
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={`One fewer ${name}`}
                      disabled={line.quantity <= 1}
                      onClick={() => setQuantity(line, line.quantity - 1)}
                    >
                      <Minus aria-hidden="true" className="size-4" />
                    </Button>
                    <output className="w-8 text-center font-semibold" aria-label={`Quantity of ${name}`}>
                      {line.quantity}
                    </output>
                    <Button
                      variant="outline"
                      size="icon"
                      aria-label={`One more ${name}`}
                      disabled={unitsOf(lines, line.item.product_id) >= line.item.max_quantity}
                      onClick={() => setQuantity(line, line.quantity + 1)}
                    >
                      <Plus aria-hidden="true" className="size-4" />
                    </Button>
                    <Button
                      variant="ghost"
                      size="icon"
                      aria-label={`Remove ${name}`}
                      onClick={() => onChange(lines.filter((l) => l !== line))}
                    >
                      <Trash2 aria-hidden="true" className="size-4" />
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
          <p className="mt-2 font-semibold" aria-live="polite">
            {units} {units === 1 ? "card" : "cards"}: {money(totals.credit)} in store credit or {money(totals.cash)} in cash
          </p>
          {lines.length > BUYLIST_LINES_MAX ? (
            <FieldError>At most {BUYLIST_LINES_MAX} cards per list: send the rest in another.</FieldError>
          ) : null}
        </>
      )}
      <form className="mt-4 flex flex-col gap-3" noValidate onSubmit={submit} aria-labelledby="buylist-contact">
        <h3 id="buylist-contact" className="text-lg font-semibold">
          Your details
        </h3>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextField
            label="Name"
            autoComplete="name"
            required
            value={contact.name}
            error={errors.name}
            onChange={(e) => set("name", e.target.value)}
          />
          <TextField
            label="Email"
            type="email"
            autoComplete="email"
            required
            value={contact.email}
            error={errors.email}
            onChange={(e) => set("email", e.target.value)}
          />
          <TextField
            label="Phone (optional)"
            type="tel"
            autoComplete="tel"
            value={contact.phone}
            error={errors.phone}
            onChange={(e) => set("phone", e.target.value)}
          />
        </div>
        <fieldset className="flex flex-col gap-1">
          <legend className="text-sm font-medium">I would like to be paid in</legend>
          <div className="flex flex-wrap gap-4">
            {(["credit", "cash"] as const).map((p) => (
              <label key={p} className="flex items-center gap-2">
                <input
                  type="radio"
                  name="payout"
                  value={p}
                  checked={contact.payout === p}
                  onChange={() => set("payout", p)}
                  className="size-4"
                />
                {p === "credit" ? "Store credit" : "Cash"}
              </label>
            ))}
          </div>
        </fieldset>
        <Field label="Note (optional)" error={errors.note}>
          <textarea
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            rows={3}
            value={contact.note}
            onChange={(e) => set("note", e.target.value)}
          />
        </Field>
        {/* The honeypot: out of sight and out of the tab order; robots that fill every field fill it. */}
        <div aria-hidden="true" className="absolute -left-[10000px] top-auto size-px overflow-hidden">
          <label>
            Website
            <input
              type="text"
              name={BUYLIST_HONEYPOT}
              tabIndex={-1}
              autoComplete="off"
              value={contact[BUYLIST_HONEYPOT]}
              onChange={(e) => set(BUYLIST_HONEYPOT, e.target.value)}
            />
          </label>
        </div>
        {errors.lines ? <FieldError>{errors.lines}</FieldError> : null}
        {errors.form ? <FieldError>{errors.form}</FieldError> : null}
        <div>
          <Button type="submit" size="lg" disabled={sending}>
            {sending ? <Spinner label="Sending" /> : null}
            Send my list
          </Button>
        </div>
      </form>
    </section>
  );
}
