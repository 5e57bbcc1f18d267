import { useQuery } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { Tabs } from "radix-ui";
import { useId, useState } from "react";
import { ROLE_LABELS } from "../../../../contract/permissions";
import type { Product } from "../../../../contract/products";
import { Dialog } from "../../../components/ui/dialog";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { useAuth } from "../../auth";
import { auditUsersQuery } from "../api/list-audit-users";
import { productAuditQuery } from "../api/list-product-audit";
import { quantityAuditQuery } from "../api/list-quantity-audit";
import type { AuditTab } from "../audit-export";
import { AUDIT_PAGE, type AuditDateRange, type AuditFilters, DATE_RANGE_LABELS, sinceFor } from "../audit-filters";
import { ProductChange, QuantityChange } from "./audit-entries";
import { ExportButton, Pager } from "./audit-pager";

export const AUDIT_FAILED = "Failed to fetch audit logs";
export const AUDIT_DENIED = "You don't have permission to view audit logs.";

export interface AuditDialogProps {
  onClose: () => void;
  /** One product's trail; all products when absent. */
  product?: Pick<Product, "id" | "product_name">;
}

function Loading() {
  return (
    <p className="flex items-center gap-2 p-4" aria-busy="true">
      <Spinner label="Loading audit logs" /> Loading audit logs...
    </p>
  );
}

function Failed() {
  return (
    <p role="alert" className="p-4 font-medium text-red-800 dark:text-red-300">
      {AUDIT_FAILED}
    </p>
  );
}

function Empty({ children }: { children: string }) {
  return <p className="p-4 text-center text-gray-700 dark:text-gray-300">{children}</p>;
}

interface ListProps {
  filters: AuditFilters;
  productId?: number;
  page: number;
  onPage: (page: number) => void;
}

/** One page of entries: asks for one more than a page, so it knows whether an older page exists. */
const pageOf = (filters: AuditFilters, page: number): AuditFilters => ({ ...filters, limit: AUDIT_PAGE + 1, offset: page * AUDIT_PAGE });

function ProductChanges({ filters, productId, page, onPage }: ListProps) {
  const query = useQuery({ ...productAuditQuery(pageOf(filters, page), productId), placeholderData: (prev) => prev });
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed />;
  if (query.data.length === 0 && page === 0) return <Empty>No product changes found</Empty>;
  return (
    <>
      <ul className="flex flex-col gap-2">
        {query.data.slice(0, AUDIT_PAGE).map((e) => (
          <ProductChange key={e.id} entry={e} />
        ))}
      </ul>
      <Pager page={page} shown={Math.min(query.data.length, AUDIT_PAGE)} more={query.data.length > AUDIT_PAGE} onPage={onPage} />
    </>
  );
}

function QuantityChanges({ filters, productId, page, onPage }: ListProps) {
  const query = useQuery({ ...quantityAuditQuery(pageOf(filters, page), productId), placeholderData: (prev) => prev });
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed />;
  if (query.data.length === 0 && page === 0) return <Empty>No quantity changes found</Empty>;
  return (
    <>
      <ul className="flex flex-col gap-2">
        {query.data.slice(0, AUDIT_PAGE).map((e) => (
          <QuantityChange key={e.id} entry={e} />
        ))}
      </ul>
      <Pager page={page} shown={Math.min(query.data.length, AUDIT_PAGE)} more={query.data.length > AUDIT_PAGE} onPage={onPage} />
    </>
  );
}

const tabClass = cn(
  "rounded-md px-3 py-1.5 text-sm font-semibold text-gray-800 dark:text-gray-100",
  "data-[state=active]:bg-white data-[state=active]:text-blue-800 data-[state=active]:shadow-sm",
  "dark:data-[state=active]:bg-gray-900 dark:data-[state=active]:text-blue-300",
  "focus-visible:outline-2 focus-visible:outline-blue-600",
);

function AuditContent({ product }: { product?: AuditDialogProps["product"] }) {
  const [tab, setTab] = useState<"changes" | "quantity">("changes");
  const [userId, setUserId] = useState<number | null>(null);
  const [range, setRange] = useState<AuditDateRange>("all");
  const [since, setSince] = useState<string | null>(null);
  const users = useQuery(auditUsersQuery());
  const id = useId();
  // Each tab pages on its own; a new filter starts both at the newest entries.
  const [pages, setPages] = useState({ changes: 0, quantity: 0 });
  const filters: AuditFilters = { userId, since };
  const onPage = (which: AuditTab) => (page: number) => setPages((p) => ({ ...p, [which]: page }));

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="User">
          <select
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            value={userId === null ? "" : String(userId)}
            onChange={(e) => {
              setUserId(e.target.value === "" ? null : Number(e.target.value));
              setPages({ changes: 0, quantity: 0 });
            }}
          >
            <option value="">All users</option>
            {(users.data ?? []).map((u) => (
              <option key={u.id} value={String(u.id)}>
                {u.username} ({ROLE_LABELS[u.role]})
              </option>
            ))}
          </select>
        </Field>
        <Field label="Date">
          <select
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            value={range}
            onChange={(e) => {
              const next = e.target.value as AuditDateRange;
              setRange(next);
              setSince(sinceFor(next));
              setPages({ changes: 0, quantity: 0 });
            }}
          >
            {(Object.keys(DATE_RANGE_LABELS) as AuditDateRange[]).map((r) => (
              <option key={r} value={r}>
                {DATE_RANGE_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Tabs.Root value={tab} onValueChange={(v) => setTab(v as "changes" | "quantity")} className="flex flex-col gap-3">
        <Tabs.List aria-label="Audit logs" className="inline-flex w-fit gap-1 rounded-lg bg-gray-100 p-1 dark:bg-gray-800">
          <Tabs.Trigger value="changes" className={tabClass} id={`${id}-changes`}>
            Product Changes
          </Tabs.Trigger>
          <Tabs.Trigger value="quantity" className={tabClass} id={`${id}-quantity`}>
            Quantity Changes
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="changes" className="focus-visible:outline-2 focus-visible:outline-blue-600">
          <ExportButton tab="changes" filters={filters} productId={product?.id} />
          <ProductChanges filters={filters} productId={product?.id} page={pages.changes} onPage={onPage("changes")} />
        </Tabs.Content>
        <Tabs.Content value="quantity" className="focus-visible:outline-2 focus-visible:outline-blue-600">
          <ExportButton tab="quantity" filters={filters} productId={product?.id} />
          <QuantityChanges filters={filters} productId={product?.id} page={pages.quantity} onPage={onPage("quantity")} />
        </Tabs.Content>
      </Tabs.Root>
    </div>
  );
}

/** The audit trail of all products or one; shown only to users who can manage products. */
export function AuditDialog({ onClose, product }: AuditDialogProps) {
  const { permissions } = useAuth();
  return <AuditDialogView allowed={permissions.canManageProducts} onClose={onClose} product={product} />;
}

/** The dialog for a given permission: the trail, or 'Access Denied'. */
export function AuditDialogView({ allowed, onClose, product }: AuditDialogProps & { allowed: boolean }) {
  return (
    <Dialog onClose={onClose} title={product ? `Audit Trail: ${product.product_name}` : "Audit Trail"} size="lg">
      {allowed ? (
        <AuditContent product={product} />
      ) : (
        <div className="flex flex-col items-center gap-2 p-6 text-center" role="alert">
          <ShieldAlert aria-hidden="true" className="h-10 w-10 text-red-700 dark:text-red-400" />
          <p className="text-lg font-bold">Access Denied</p>
          <p>{AUDIT_DENIED}</p>
        </div>
      )}
    </Dialog>
  );
}
