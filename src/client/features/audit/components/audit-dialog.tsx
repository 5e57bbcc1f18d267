import { useQuery } from "@tanstack/react-query";
import { ShieldAlert } from "lucide-react";
import { Tabs } from "radix-ui";
import { useId, useState } from "react";
import type { ProductAuditEntry, QuantityAuditEntry } from "../../../../contract/audit";
import { AUDIT_LIMIT_MAX } from "../../../../contract/audit";
import { ROLE_LABELS } from "../../../../contract/permissions";
import type { Product } from "../../../../contract/products";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { useAuth } from "../../auth";
import { auditUsersQuery } from "../api/list-audit-users";
import { productAuditQuery } from "../api/list-product-audit";
import { quantityAuditQuery } from "../api/list-quantity-audit";
import {
  AUDIT_FIELD_LABELS,
  AUDIT_PAGE,
  type AuditDateRange,
  type AuditFilters,
  auditValue,
  DATE_RANGE_LABELS,
  formatTimestamp,
  sinceFor,
} from "../audit-filters";

export const AUDIT_FAILED = "Failed to fetch audit logs";
export const AUDIT_DENIED = "You don't have permission to view audit logs.";

const ACTION_VARIANTS: Record<ProductAuditEntry["action"], BadgeVariant> = {
  CREATE: "success",
  UPDATE: "info",
  DELETE: "danger",
  DISABLE: "danger",
  ENABLE: "success",
  QUANTITY_ADD: "success",
  QUANTITY_SUBTRACT: "warning",
};

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

function ProductChange({ entry }: { entry: ProductAuditEntry }) {
  const fields = entry.changed_fields.length > 0 ? entry.changed_fields : Object.keys(entry.new_values ?? {});
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-gray-200 p-3 dark:border-gray-700" data-testid="audit-change">
      <div className="flex flex-wrap items-center gap-2">
        <Badge variant={ACTION_VARIANTS[entry.action]}>{entry.action}</Badge>
        <span className="font-semibold">{entry.product_name}</span>
        <span className="font-mono text-xs text-gray-700 dark:text-gray-300">{entry.barcode}</span>
      </div>
      <p className="text-xs text-gray-700 dark:text-gray-300">
        {formatTimestamp(entry.timestamp)} · {entry.user_name}
        {entry.ip_address ? ` · ${entry.ip_address}` : ""}
      </p>
      {fields.length > 0 ? (
        <ul className="text-sm">
          {fields.map((field) => (
            <li key={field}>
              <span className="font-medium">{AUDIT_FIELD_LABELS[field] ?? field}</span>:{" "}
              {entry.old_values && field in entry.old_values ? (
                <>
                  <span className="text-red-800 line-through dark:text-red-300">{auditValue(field, entry.old_values[field])}</span> →{" "}
                </>
              ) : null}
              <span className="text-green-800 dark:text-green-300">{auditValue(field, entry.new_values?.[field])}</span>
            </li>
          ))}
        </ul>
      ) : null}
    </li>
  );
}

function QuantityChange({ entry }: { entry: QuantityAuditEntry }) {
  const up = entry.quantity_change > 0;
  return (
    <li className="flex flex-col gap-1 rounded-lg border border-gray-200 p-3 dark:border-gray-700" data-testid="audit-quantity">
      <div className="flex flex-wrap items-center gap-2">
        <span
          className={cn("text-lg font-bold tabular-nums", up ? "text-green-800 dark:text-green-300" : "text-red-800 dark:text-red-300")}
        >
          {up ? `+${entry.quantity_change}` : entry.quantity_change}
        </span>
        <span className="font-semibold">{entry.product_name}</span>
        <span className="font-mono text-xs text-gray-700 dark:text-gray-300">{entry.barcode}</span>
        <Badge>{entry.transaction_type}</Badge>
      </div>
      <p className="text-sm">
        Quantity: {entry.quantity_before} → {entry.quantity_after}
        {entry.notes ? ` · ${entry.notes}` : ""}
      </p>
      <p className="text-xs text-gray-700 dark:text-gray-300">
        {formatTimestamp(entry.timestamp)} · {entry.user_name}
      </p>
    </li>
  );
}

/** 'Show more' while the server may hold more entries than were asked for. */
function ShowMore({ shown, limit, onMore }: { shown: number; limit: number; onMore: () => void }) {
  if (shown < limit || limit >= AUDIT_LIMIT_MAX) return null;
  return (
    <div className="flex justify-center pt-2">
      <Button variant="outline" size="sm" onClick={onMore}>
        Show more
      </Button>
    </div>
  );
}

interface ListProps {
  filters: AuditFilters;
  productId?: number;
  limit: number;
  onMore: () => void;
}

function ProductChanges({ filters, productId, limit, onMore }: ListProps) {
  const query = useQuery({ ...productAuditQuery({ ...filters, limit }, productId), placeholderData: (prev) => prev });
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed />;
  if (query.data.length === 0) return <Empty>No product changes found</Empty>;
  return (
    <>
      <ul className="flex flex-col gap-2">
        {query.data.map((e) => (
          <ProductChange key={e.id} entry={e} />
        ))}
      </ul>
      <ShowMore shown={query.data.length} limit={limit} onMore={onMore} />
    </>
  );
}

function QuantityChanges({ filters, productId, limit, onMore }: ListProps) {
  const query = useQuery({ ...quantityAuditQuery({ ...filters, limit }, productId), placeholderData: (prev) => prev });
  if (query.isPending) return <Loading />;
  if (query.isError) return <Failed />;
  if (query.data.length === 0) return <Empty>No quantity changes found</Empty>;
  return (
    <>
      <ul className="flex flex-col gap-2">
        {query.data.map((e) => (
          <QuantityChange key={e.id} entry={e} />
        ))}
      </ul>
      <ShowMore shown={query.data.length} limit={limit} onMore={onMore} />
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
  const [limits, setLimits] = useState({ changes: AUDIT_PAGE, quantity: AUDIT_PAGE });
  const filters: AuditFilters = { userId, since };
  const more = (which: "changes" | "quantity") => () =>
    setLimits((l) => ({ ...l, [which]: Math.min(AUDIT_LIMIT_MAX, l[which] + AUDIT_PAGE) }));

  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-3 sm:grid-cols-2">
        <Field label="User">
          <select
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            value={userId === null ? "" : String(userId)}
            onChange={(e) => setUserId(e.target.value === "" ? null : Number(e.target.value))}
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
          <ProductChanges filters={filters} productId={product?.id} limit={limits.changes} onMore={more("changes")} />
        </Tabs.Content>
        <Tabs.Content value="quantity" className="focus-visible:outline-2 focus-visible:outline-blue-600">
          <QuantityChanges filters={filters} productId={product?.id} limit={limits.quantity} onMore={more("quantity")} />
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
