import { CheckCircle2, ShoppingCart, Trash2, X } from "lucide-react";
import { Suspense, useId, useRef, useState } from "react";
import type { Customer } from "../../../../contract/counter";
import { customerName } from "../../../../contract/customer-rules";
import { centsToAmount, parseAmount } from "../../../../contract/money";
import { ORDER_MESSAGES } from "../../../../contract/order-rules";
import type { CreateOrderBody, FailedLine, Order } from "../../../../contract/orders";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { ApiError, messageOr } from "../../../lib/http";
import { CustomerPicker, PrintReceiptButton, ScanOrSearch, SHOP_NAME, saleReceiptPdf } from "../../counter";
import { useMoney } from "../../settings";
import { customerBalance, newSaleId, useCreateOrder } from "../api/create-order";

const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");
/** Orders made here carry this channel. */
export const COUNTER_CHANNEL = "counter";

interface SaleLine {
  product: Product;
  quantity: number;
  /** The unit price as typed (the product's price to begin with). */
  price: string;
}
type Pay = "cash" | "card" | "credit" | "split";
const PAY_LABELS: Record<Pay, string> = { cash: "Cash", card: "Card", credit: "Store credit", split: "Split" };

const unitCents = (line: SaleLine) => parseAmount(line.price);
const lineTotal = (line: SaleLine) => (unitCents(line) ?? 0) * line.quantity;

/** The payments the order is sent with, or the reason they cannot be made. */
export function paymentsOf(
  pay: Pay,
  total: number,
  creditText: string,
  rest: "cash" | "card",
  customer: Customer | null,
): CreateOrderBody["payments"] | string {
  if ((pay === "credit" || pay === "split") && !customer) return "Store credit needs a customer: pick or create one";
  if (pay === "cash" || pay === "card" || pay === "credit") return [{ method: pay, amount: total }];
  const credit = parseAmount(creditText);
  if (credit === undefined) return "Type the store credit part as an amount, like 5.00";
  if (credit > total) return "The store credit part is more than the total";
  const payments: NonNullable<CreateOrderBody["payments"]> = [];
  if (credit > 0) payments.push({ method: "credit", amount: credit });
  if (total - credit > 0) payments.push({ method: rest, amount: total - credit });
  return payments.length ? payments : [{ method: rest, amount: 0 }];
}

/** What a refused sale's answer means at the counter: the lines short of stock by name, or the credit's balance. */
export function saleErrorText(err: unknown, lines: SaleLine[], money: (c: number) => string): string {
  if (err instanceof ApiError && err.data && typeof err.data === "object") {
    const data = err.data as { lines?: FailedLine[]; balance?: number };
    if (Array.isArray(data.lines) && data.lines.length > 0) {
      const named = data.lines.map((l) => {
        const name = lines[l.index]?.product.product_name ?? l.barcode ?? `line ${l.index + 1}`;
        return `${name} (${l.requested} wanted, ${l.available} in stock)`;
      });
      return `Not enough stock: ${named.join("; ")}. Nothing was sold.`;
    }
    if (typeof data.balance === "number") return `Not enough store credit: the balance is ${money(data.balance)}. Nothing was sold.`;
  }
  if (err instanceof ApiError && err.status === 422 && err.message === ORDER_MESSAGES.differentLines)
    return "This sale went through before the lines were changed (its answer was lost): find it in the orders below, or close it and start a new sale.";
  if (err instanceof ApiError && err.isNetworkError)
    return "The connection dropped: the sale may or may not have gone through. Complete sale again: it is the same sale and is never made twice.";
  return messageOr(err, "Failed to complete the sale");
}

/** A sale at the counter: lines scanned or searched, an optional customer, cash, card, store credit or a split, then a receipt. */
export function CounterSale({ onClose }: { onClose: () => void }) {
  const id = useId();
  const money = useMoney();
  // One external id per sale: sending it again (after a dropped connection) is the same order, applied once.
  const [saleId, setSaleId] = useState(() => newSaleId());
  const [lines, setLines] = useState<SaleLine[]>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [pay, setPay] = useState<Pay>("cash");
  const [creditText, setCreditText] = useState("");
  const [rest, setRest] = useState<"cash" | "card">("cash");
  const [error, setError] = useState<string | null>(null);
  const [announce, setAnnounce] = useState("");
  const [done, setDone] = useState<{ order: Order; customer: Customer | null; balance: number | null } | null>(null);
  const scanRef = useRef<HTMLInputElement>(null);
  const create = useCreateOrder();

  const total = lines.reduce((s, l) => s + lineTotal(l), 0);
  const badPrice = lines.find((l) => unitCents(l) === undefined);

  const addProduct = (p: Product) => {
    if (!p.is_active) {
      setError(`${p.product_name} is disabled: it cannot be sold until it is enabled again`);
      return;
    }
    setError(null);
    setLines((now) => {
      const at = now.findIndex((l) => l.product.id === p.id);
      if (at >= 0) return now.map((l, i) => (i === at ? { ...l, quantity: l.quantity + 1 } : l));
      return [...now, { product: p, quantity: 1, price: p.price === null ? "" : centsToAmount(p.price) }];
    });
    setAnnounce(`Added ${p.product_name}${p.price === null ? ", no price: type one" : ` at ${money(p.price)}`}`);
  };
  const setLine = (index: number, change: Partial<SaleLine>) =>
    setLines((now) => now.map((l, i) => (i === index ? { ...l, ...change } : l)));

  const complete = () => {
    setError(null);
    if (lines.length === 0) return setError("Add at least one card to sell");
    if (badPrice) return setError(`Type a price for ${badPrice.product.product_name}, like 4.99`);
    const payments = paymentsOf(pay, total, creditText, rest, customer);
    if (typeof payments === "string") return setError(payments);
    const body: CreateOrderBody = {
      channel: COUNTER_CHANNEL,
      external_id: saleId,
      lines: lines.map((l) => ({ product_id: l.product.id, quantity: l.quantity, unit_price: unitCents(l) ?? 0 })),
      payments,
      ...(customer ? { customer_id: customer.id } : {}),
    };
    create.mutate(body, {
      onSuccess: async (order) => {
        let balance: number | null = null;
        if (customer) balance = await customerBalance(customer.id).catch(() => null);
        setDone({ order, customer, balance });
      },
      onError: (err) => setError(saleErrorText(err, lines, money)),
    });
  };

  const restart = () => {
    setSaleId(newSaleId());
    setLines([]);
    setCustomer(null);
    setPay("cash");
    setCreditText("");
    setError(null);
    setDone(null);
  };

  return (
    <Card className="flex flex-col gap-4 p-4" data-testid="counter-sale">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id={`${id}-t`} className="flex items-center gap-2 text-xl font-bold">
          <ShoppingCart aria-hidden="true" className="h-6 w-6 text-blue-700 dark:text-blue-400" />
          Counter sale
        </h2>
        <Button variant="outline" size="sm" onClick={onClose} disabled={create.isPending}>
          <X aria-hidden="true" className="h-4 w-4" />
          Close sale
        </Button>
      </div>
      {done ? (
        <SaleDone {...done} onNew={restart} />
      ) : (
        <>
          <p className="sr-only" aria-live="polite" data-testid="sale-announcement">
            {announce}
          </p>
          <Suspense fallback={<Spinner label="Loading the scan field" />}>
            <ScanOrSearch
              inputRef={scanRef}
              onProduct={addProduct}
              onError={setError}
              label="Add cards to the sale"
              testId="sale-scan-field"
              detail={(p) => `${p.quantity_on_hand} in stock`}
            />
          </Suspense>
          {lines.length === 0 ? (
            <p className="text-sm">No cards yet: scan a barcode or search by name.</p>
          ) : (
            <ul aria-label="Sale lines" className="flex flex-col gap-2">
              {lines.map((line, i) => (
                <li
                  key={line.product.id}
                  data-testid="sale-line"
                  className="grid grid-cols-2 items-end gap-2 rounded-lg border border-gray-200 p-2 sm:grid-cols-[1fr_6rem_8rem_auto_auto] dark:border-gray-700"
                >
                  <span className="col-span-2 min-w-0 break-words sm:col-span-1">
                    <span className="font-semibold">{line.product.product_name}</span>
                    <span className="block text-sm text-gray-700 dark:text-gray-300">
                      {line.product.quantity_on_hand} in stock · <span className="font-mono">{line.product.barcode}</span>
                    </span>
                  </span>
                  <Field label="Quantity">
                    <input
                      type="number"
                      min={1}
                      inputMode="numeric"
                      className={selectClassName}
                      aria-label={`Quantity of ${line.product.product_name}`}
                      value={line.quantity}
                      onChange={(e) => setLine(i, { quantity: Math.max(1, Math.trunc(Number(e.target.value) || 1)) })}
                    />
                  </Field>
                  <Field label="Unit price">
                    <input
                      inputMode="decimal"
                      className={selectClassName}
                      aria-label={`Unit price of ${line.product.product_name}`}
                      value={line.price}
                      onChange={(e) => setLine(i, { price: e.target.value })}
                      aria-invalid={unitCents(line) === undefined}
                    />
                  </Field>
                  <span className="font-semibold" data-testid="sale-line-total">
                    {money(lineTotal(line))}
                  </span>
                  <Button
                    variant="outline"
                    size="sm"
                    aria-label={`Remove ${line.product.product_name}`}
                    onClick={() => setLines((now) => now.filter((_, j) => j !== i))}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" />
                  </Button>
                </li>
              ))}
            </ul>
          )}
          <p className="text-xl font-bold" data-testid="sale-total">
            Total: {money(total)}
          </p>

          <section aria-labelledby={`${id}-c`} className="flex flex-col gap-2">
            <h3 id={`${id}-c`} className="font-semibold">
              Customer (optional; needed for store credit)
            </h3>
            <Suspense fallback={<Spinner label="Loading customers" />}>
              <CustomerPicker
                customer={customer}
                onPick={(c) => {
                  setCustomer(c);
                  if (!c && (pay === "credit" || pay === "split")) setPay("cash");
                }}
              />
            </Suspense>
          </section>

          <fieldset className="flex flex-col gap-2">
            <legend className="mb-1 font-semibold">Paid by</legend>
            <div className="flex flex-wrap gap-3">
              {(["cash", "card", "credit", "split"] as const).map((p) => (
                <label key={p} className="flex items-center gap-1.5">
                  <input
                    type="radio"
                    name={`${id}-pay`}
                    value={p}
                    checked={pay === p}
                    disabled={(p === "credit" || p === "split") && !customer}
                    onChange={() => {
                      setPay(p);
                      if (p === "split" && customer && !creditText) setCreditText(centsToAmount(Math.min(customer.credit_balance, total)));
                    }}
                    className="h-4 w-4"
                  />
                  {PAY_LABELS[p]}
                </label>
              ))}
            </div>
            {customer ? (
              <p className="text-sm" data-testid="sale-balance">
                {customerName(customer)} has {money(customer.credit_balance)} in store credit.
              </p>
            ) : (
              <p className="text-sm text-gray-700 dark:text-gray-300">Store credit needs a customer.</p>
            )}
            {pay === "split" ? (
              <div className="grid grid-cols-1 gap-2 sm:grid-cols-2">
                <Field label="Store credit part" hint={`Of ${money(total)}; the rest is paid as chosen next.`}>
                  <input
                    inputMode="decimal"
                    className={selectClassName}
                    value={creditText}
                    onChange={(e) => setCreditText(e.target.value)}
                  />
                </Field>
                <Field label="The rest by">
                  <select className={selectClassName} value={rest} onChange={(e) => setRest(e.target.value as "cash" | "card")}>
                    <option value="cash">Cash</option>
                    <option value="card">Card</option>
                  </select>
                </Field>
              </div>
            ) : null}
          </fieldset>

          {error ? (
            <p role="alert" className="font-medium text-red-800 dark:text-red-200">
              {error}
            </p>
          ) : null}
          <div>
            <Button onClick={complete} disabled={create.isPending}>
              <CheckCircle2 aria-hidden="true" className="h-4 w-4" />
              {create.isPending ? "Completing the sale..." : "Complete sale"}
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

/** After the sale: what was sold and paid, the credit left, the receipt to print, and a new sale. */
function SaleDone({
  order,
  customer,
  balance,
  onNew,
}: {
  order: Order;
  customer: Customer | null;
  balance: number | null;
  onNew: () => void;
}) {
  const money = useMoney();
  const units = order.lines.reduce((s, l) => s + l.quantity, 0);
  return (
    <div className="flex flex-col gap-3" data-testid="sale-done">
      <p role="status" className="flex items-center gap-2 text-lg font-bold">
        <CheckCircle2 aria-hidden="true" className="h-6 w-6 text-green-700 dark:text-green-400" />
        Sale #{order.id} complete
      </p>
      <p>
        {units} {units === 1 ? "card" : "cards"} sold for {money(order.total ?? 0)}
        {(order.payments ?? []).length > 0
          ? `: ${(order.payments ?? []).map((p) => `${money(p.amount)} by ${PAY_LABELS[p.method].toLowerCase()}`).join(", ")}`
          : ""}
        .
      </p>
      {customer && balance !== null ? (
        <p data-testid="sale-credit-left">
          {customerName(customer)} has {money(balance)} in store credit left.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Suspense fallback={<Spinner label="Loading" />}>
          <PrintReceiptButton
            filename={`sale-${order.id}.pdf`}
            make={() =>
              saleReceiptPdf({
                shopName: SHOP_NAME,
                order,
                customer: customer ? customerName(customer) : null,
                money,
                creditLeft: balance,
              })
            }
          />
        </Suspense>
        <Button variant="outline" onClick={onNew}>
          <ShoppingCart aria-hidden="true" className="h-4 w-4" />
          New sale
        </Button>
      </div>
    </div>
  );
}
