import { UserPlus, UserRound, X } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import type { Customer } from "../../../../contract/counter";
import { customerName } from "../../../../contract/customer-rules";
import { Button } from "../../../components/ui/button";
import { FieldError, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { useMoney } from "../../settings";
import { useCreateCustomer, useCustomers } from "../api/counter-api";

export { customerName };

/** One customer found: name, email or phone, and their store credit. */
export function CustomerSummary({ customer }: { customer: Customer }) {
  const money = useMoney();
  const contact = [customer.email, customer.phone].filter(Boolean).join(" · ");
  return (
    <span className="flex min-w-0 flex-col">
      <span className="break-words font-semibold">{customerName(customer)}</span>
      <span className="break-words text-sm text-gray-700 dark:text-gray-300">
        {contact ? `${contact} · ` : ""}Credit {money(customer.credit_balance)}
      </span>
    </span>
  );
}

/** Searches customers by name, email or phone as one types, and lists them to pick. */
export function CustomerSearch({ onPick, label = "Find a customer" }: { onPick: (c: Customer) => void; label?: string }) {
  const [q, setQ] = useState("");
  const customers = useCustomers(q.trim());
  const found = (customers.data ?? []).filter((c) => !c.erased_at);
  return (
    <div className="flex flex-col gap-2">
      <TextField label={label} type="search" value={q} onChange={(e) => setQ(e.target.value)} placeholder="Name, email or phone" />
      {customers.isPending ? (
        <p className="flex items-center gap-2 text-sm">
          <Spinner label="Loading customers" /> Loading customers...
        </p>
      ) : customers.isError ? (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
          {loadErrorText(customers.error)}
        </p>
      ) : found.length === 0 ? (
        <p className="text-sm">{q.trim() ? "No customer matches." : "No customers yet."}</p>
      ) : (
        <ul aria-label="Customers found" className="flex max-h-64 flex-col gap-1 overflow-y-auto">
          {found.slice(0, 20).map((c) => (
            <li key={c.id}>
              <button
                type="button"
                onClick={() => onPick(c)}
                className="flex w-full items-center gap-2 rounded-lg border border-gray-300 p-2 text-left hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-600 dark:hover:bg-gray-800"
              >
                <UserRound aria-hidden="true" className="h-5 w-5 shrink-0" />
                <CustomerSummary customer={c} />
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** A new customer: name, optional email and phone. */
export function NewCustomerForm({ onCreated, onCancel }: { onCreated: (c: Customer) => void; onCancel?: () => void }) {
  const id = useId();
  const create = useCreateCustomer();
  const [name, setName] = useState("");
  const [email, setEmail] = useState("");
  const [phone, setPhone] = useState("");
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) return setError("Name is required");
    setError(null);
    create.mutate(
      { name, email: email || null, phone: phone || null },
      { onSuccess: onCreated, onError: (err) => setError(messageOr(err, "Failed to create the customer")) },
    );
  };
  return (
    <form aria-labelledby={`${id}-t`} onSubmit={submit} className="flex flex-col gap-2" noValidate>
      <h3 id={`${id}-t`} className="font-semibold">
        New customer
      </h3>
      <TextField label="Name" value={name} onChange={(e) => setName(e.target.value)} autoComplete="off" required />
      <TextField label="Email (optional)" type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="off" />
      <TextField label="Phone (optional)" type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} autoComplete="off" />
      <FieldError>{error}</FieldError>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={create.isPending}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          {create.isPending ? "Creating..." : "Create customer"}
        </Button>
        {onCancel ? (
          <Button variant="outline" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  );
}

/** The trade-in's customer (optional): the one picked, or a search and a form to create one. */
export function CustomerPicker({
  customer,
  onPick,
  disabled,
}: {
  customer: Customer | null;
  onPick: (c: Customer | null) => void;
  disabled?: boolean;
}) {
  const [creating, setCreating] = useState(false);
  if (customer) {
    return (
      <div className="flex flex-wrap items-center justify-between gap-2" data-testid="picked-customer">
        <CustomerSummary customer={customer} />
        <Button variant="outline" size="sm" onClick={() => onPick(null)} disabled={disabled}>
          <X aria-hidden="true" className="h-4 w-4" />
          Change customer
        </Button>
      </div>
    );
  }
  return creating ? (
    <NewCustomerForm
      onCreated={(c) => {
        setCreating(false);
        onPick(c);
      }}
      onCancel={() => setCreating(false)}
    />
  ) : (
    <div className="flex flex-col gap-2">
      <CustomerSearch onPick={onPick} />
      <div>
        <Button variant="outline" size="sm" onClick={() => setCreating(true)} disabled={disabled}>
          <UserPlus aria-hidden="true" className="h-4 w-4" />
          New customer
        </Button>
      </div>
    </div>
  );
}
