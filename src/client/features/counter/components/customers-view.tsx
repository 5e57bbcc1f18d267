import { ArrowLeft, Download, RefreshCw, Trash2, UserPlus, Users } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { parseAmount } from "../../../../contract/money";
import { canManageIntegrations } from "../../../../contract/permissions";
import { AccessDenied } from "../../../components/ui/access-denied";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { downloadBlob } from "../../../lib/download";
import { ApiError, loadErrorText, messageOr } from "../../../lib/http";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { useMoney } from "../../settings";
import { exportCustomer, useAdjustCredit, useCustomer, useEraseCustomer } from "../api/counter-api";
import { CustomerSearch, customerName, NewCustomerForm } from "./customer-picker";
import { ReverseTradeIn } from "./reverse-trade-in";

export interface CustomersViewProps {
  /** The customer whose page is shown (its address, `/customers/{id}`); none: the list. */
  customerId?: number;
  onOpenCustomer: (id: number) => void;
  onBack: () => void;
}

const KIND_TEXT = { trade_in: "Trade-in", order: "Order", adjustment: "Adjustment", expiry: "Expiry" } as const;

/** Customers (inventory users, managers, super_admin): searchable; a customer's page with trade-ins, orders and store credit. */
export function CustomersView({ customerId, onOpenCustomer, onBack }: CustomersViewProps) {
  const { permissions } = useAuth();
  if (!permissions.canManageProducts) return <AccessDenied text="You don't have permission to see customers." />;
  return customerId === undefined ? <CustomerList onOpen={onOpenCustomer} /> : <CustomerPage id={customerId} onBack={onBack} />;
}

function CustomerList({ onOpen }: { onOpen: (id: number) => void }) {
  const id = useId();
  const [creating, setCreating] = useState(false);
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <div>
          <h1 id={`${id}-title`} className="flex items-center gap-2 text-2xl font-bold">
            <Users aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
            Customers
          </h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">The people who trade cards in, with their store credit.</p>
        </div>
        {creating ? null : (
          <Button onClick={() => setCreating(true)}>
            <UserPlus aria-hidden="true" className="h-4 w-4" />
            New customer
          </Button>
        )}
      </div>
      {creating ? (
        <Card className="p-4">
          <NewCustomerForm onCreated={(c) => onOpen(c.id)} onCancel={() => setCreating(false)} />
        </Card>
      ) : null}
      <Card className="p-4">
        <CustomerSearch label="Search customers" onPick={(c) => onOpen(c.id)} />
      </Card>
    </section>
  );
}

function CustomerPage({ id, onBack }: { id: number; onBack: () => void }) {
  const titleId = useId();
  const money = useMoney();
  const { user } = useAuth();
  const detail = useCustomer(id);
  const [erasing, setErasing] = useState(false);
  const manager = user ? canManageIntegrations(user.role) : false;
  const notFound = detail.error instanceof ApiError && detail.error.status === 404;

  const exportData = async () => {
    try {
      const data = await exportCustomer(id);
      downloadBlob(`customer-${id}.json`, new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
    } catch (err) {
      notify.error(messageOr(err, "Failed to export the customer"));
    }
  };

  return (
    <section aria-labelledby={titleId} className="flex flex-col gap-4">
      <div>
        <Button variant="ghost" size="sm" onClick={onBack}>
          <ArrowLeft aria-hidden="true" className="h-4 w-4" />
          All customers
        </Button>
      </div>
      {detail.isPending ? (
        <div className="flex items-center justify-center gap-3 p-8">
          <Spinner label="Loading customer" />
          <p>Loading customer...</p>
          <h1 id={titleId} className="sr-only">
            Customer
          </h1>
        </div>
      ) : detail.isError ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900">
          <h1 id={titleId} className="text-xl font-bold">
            Customer
          </h1>
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {notFound ? "There is no such customer." : loadErrorText(detail.error)}
          </p>
          {notFound ? null : (
            <Button variant="outline" onClick={() => void detail.refetch()}>
              <RefreshCw aria-hidden="true" className="h-4 w-4" />
              Try Again
            </Button>
          )}
        </div>
      ) : (
        <>
          <Card className="flex flex-col gap-2 p-4">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <h1 id={titleId} className="break-words text-2xl font-bold">
                  {customerName(detail.data.customer)}
                </h1>
                {detail.data.customer.erased_at ? (
                  <Badge variant="warning">Erased {new Date(detail.data.customer.erased_at).toLocaleString()}</Badge>
                ) : (
                  <p className="break-words text-sm text-gray-700 dark:text-gray-300">
                    {[detail.data.customer.email, detail.data.customer.phone].filter(Boolean).join(" · ") || "No email or phone"}
                  </p>
                )}
              </div>
              <div className="text-right">
                <p className="text-sm">Store credit</p>
                <p className="text-2xl font-bold" data-testid="credit-balance">
                  {money(detail.data.credit.balance)}
                </p>
              </div>
            </div>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={() => void exportData()}>
                <Download aria-hidden="true" className="h-4 w-4" />
                Export data (JSON)
              </Button>
              {detail.data.customer.erased_at ? null : (
                <Button variant="danger" size="sm" onClick={() => setErasing(true)}>
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                  Erase customer
                </Button>
              )}
            </div>
          </Card>

          <Card className="p-4">
            <h2 className="mb-2 text-lg font-bold">Store credit ledger</h2>
            {manager && !detail.data.customer.erased_at ? <AdjustCredit id={id} /> : null}
            {detail.data.credit.entries.length === 0 ? (
              <p className="text-sm">No store credit yet.</p>
            ) : (
              <ul aria-label="Credit entries" className="mt-2 flex flex-col divide-y divide-gray-200 text-sm dark:divide-gray-700">
                {detail.data.credit.entries.map((e) => (
                  <li key={e.id} className="flex flex-wrap justify-between gap-2 py-2" data-testid="credit-entry">
                    <span className="min-w-0 break-words">
                      <span className="font-semibold">{KIND_TEXT[e.kind]}</span> · {e.reason} · {new Date(e.created_at).toLocaleString()} by{" "}
                      {e.created_by}
                    </span>
                    <span>
                      <span className={e.amount < 0 ? "text-red-800 dark:text-red-200" : "text-green-800 dark:text-green-200"}>
                        {e.amount > 0 ? "+" : "−"}
                        {money(Math.abs(e.amount))}
                      </span>{" "}
                      · balance {money(e.balance_after)}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>

          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            <Card className="p-4">
              <h2 className="mb-2 text-lg font-bold">Trade-ins</h2>
              {detail.data.trade_ins.length === 0 ? (
                <p className="text-sm">No trade-ins.</p>
              ) : (
                <ul aria-label="Trade-ins" className="flex flex-col divide-y divide-gray-200 text-sm dark:divide-gray-700">
                  {detail.data.trade_ins.map((t) => (
                    <li key={t.id} className="flex flex-wrap justify-between gap-2 py-2">
                      <span>
                        <span className="font-semibold">Trade-in #{t.number}</span> · {t.status} · {t.totals.units} cards
                      </span>
                      <span>
                        {money(t.cash_cents)} cash{t.credit_cents > 0 ? `, ${money(t.credit_cents)} credit` : ""}
                      </span>
                      {t.status === "reversed" && t.reversal_reason ? (
                        <span className="w-full text-gray-700 dark:text-gray-300">Reversed: {t.reversal_reason}</span>
                      ) : null}
                      {manager && t.status === "accepted" ? <ReverseTradeIn tradeIn={t} /> : null}
                    </li>
                  ))}
                </ul>
              )}
            </Card>
            <Card className="p-4">
              <h2 className="mb-2 text-lg font-bold">Orders</h2>
              {detail.data.orders.length === 0 ? (
                <p className="text-sm">No orders.</p>
              ) : (
                <ul aria-label="Orders" className="flex flex-col divide-y divide-gray-200 text-sm dark:divide-gray-700">
                  {detail.data.orders.map((o) => (
                    <li key={o.id} className="flex flex-wrap justify-between gap-2 py-2">
                      <span>
                        <span className="font-semibold">
                          {o.channel} · {o.external_id}
                        </span>{" "}
                        · {o.status} · {new Date(o.created_at).toLocaleString()}
                      </span>
                      <span>{o.total === null ? "" : money(o.total)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          </div>
          {erasing ? <EraseDialog id={id} name={customerName(detail.data.customer)} onClose={() => setErasing(false)} /> : null}
        </>
      )}
    </section>
  );
}

/** A manager's adjustment: an amount added (or taken, with a minus) and why; a new ledger entry. */
function AdjustCredit({ id }: { id: number }) {
  const adjust = useAdjustCredit(id);
  const [amount, setAmount] = useState("");
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const negative = amount.trim().startsWith("-");
    const cents = parseAmount(amount.trim().replace(/^[-+]/, ""));
    if (cents === undefined || cents === 0) return setError("Enter an amount such as 10.00, or -10.00 to take credit");
    if (!reason.trim()) return setError("A reason is required");
    setError(null);
    adjust.mutate(
      { amount: negative ? -cents : cents, reason },
      {
        onSuccess: () => {
          setAmount("");
          setReason("");
          notify.success("Store credit adjusted");
        },
        onError: (err) => setError(messageOr(err, "Failed to adjust the credit")),
      },
    );
  };
  return (
    <form
      onSubmit={submit}
      aria-label="Adjust store credit"
      className="grid grid-cols-1 gap-2 sm:grid-cols-[10rem_1fr_auto] sm:items-end"
      noValidate
    >
      <TextField
        label="Amount (+ or -)"
        inputMode="decimal"
        value={amount}
        onChange={(e) => setAmount(e.target.value)}
        placeholder="10.00"
      />
      <TextField label="Reason" value={reason} onChange={(e) => setReason(e.target.value)} />
      <Button type="submit" disabled={adjust.isPending}>
        {adjust.isPending ? "Adjusting..." : "Adjust credit"}
      </Button>
      <FieldError>{error}</FieldError>
    </form>
  );
}

function EraseDialog({ id, name, onClose }: { id: number; name: string; onClose: () => void }) {
  const erase = useEraseCustomer(id);
  const confirm = () =>
    erase.mutate(undefined, {
      onSuccess: () => {
        notify.success("Customer erased");
        onClose();
      },
      onError: (err) => notify.error(messageOr(err, "Failed to erase the customer")),
    });
  return (
    <Dialog
      title={`Erase ${name}?`}
      description="Their name, email, phone and notes are removed for good. Their trade-ins, orders and store credit ledger are kept, with their sums, without the person."
      onClose={onClose}
      busy={erase.isPending}
      size="sm"
      focusFirstField={false}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={erase.isPending}>
            Keep customer
          </Button>
          <Button variant="danger" onClick={confirm} disabled={erase.isPending}>
            {erase.isPending ? "Erasing..." : "Erase customer"}
          </Button>
        </>
      }
    />
  );
}
