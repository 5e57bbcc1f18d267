import { Plus, RefreshCw, ShoppingCart } from "lucide-react";
import { useId, useState } from "react";
import type { OrderStatus } from "../../../../contract/order-rules";
import type { Order } from "../../../../contract/orders";
import { canManageIntegrations } from "../../../../contract/permissions";
import { AccessDenied } from "../../../components/ui/access-denied";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { ApiError, loadErrorText, messageOr } from "../../../lib/http";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { useMoney } from "../../settings";
import { useCancelOrder } from "../api/cancel-order";
import { useOrder } from "../api/get-order";
import { useOrders } from "../api/list-orders";
import { CounterSale } from "./counter-sale";

const PAGE = 50;

/** A day picked on screen (YYYY-MM-DD, the browser's time zone) as the instant it starts, or ends at. */
function dayStart(day: string): string | undefined {
  return day ? new Date(`${day}T00:00:00`).toISOString() : undefined;
}
function dayEnd(day: string): string | undefined {
  if (!day) return undefined;
  const next = new Date(`${day}T00:00:00`);
  next.setDate(next.getDate() + 1);
  return new Date(next.getTime() - 1).toISOString();
}
const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

export interface OrdersViewProps {
  /** The order whose detail is open over the list (its address, `/orders/{id}`). */
  orderId?: number;
  /** Opens an order's detail (its address). */
  onOpenOrder: (id: number) => void;
  onCloseOrder: () => void;
}

/** The Orders screen (managers and super administrators): orders from every channel, filtered, live, cancellable. */
export function OrdersView(props: OrdersViewProps) {
  const { user } = useAuth();
  if (!user) return null;
  if (!canManageIntegrations(user.role)) {
    return <AccessDenied text="You don't have permission to see orders." />;
  }
  return <Orders {...props} />;
}

function Orders({ orderId, onOpenOrder, onCloseOrder }: OrdersViewProps) {
  const id = useId();
  const [channel, setChannel] = useState("");
  const [status, setStatus] = useState<OrderStatus | "">("");
  const [from, setFrom] = useState("");
  const [to, setTo] = useState("");
  const [limit, setLimit] = useState(PAGE);
  const [cancelling, setCancelling] = useState<Order | null>(null);
  const [selling, setSelling] = useState(false);
  const orders = useOrders({
    channel: channel.trim() || undefined,
    status: status || undefined,
    from: dayStart(from),
    to: dayEnd(to),
    limit,
  });
  const filtered = channel.trim() !== "" || status !== "" || from !== "" || to !== "";
  const clear = () => {
    setChannel("");
    setStatus("");
    setFrom("");
    setTo("");
    setLimit(PAGE);
  };

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h1 id={`${id}-title`} className="flex items-center gap-2 text-2xl font-bold">
            <ShoppingCart aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
            Orders
          </h1>
          <p className="text-sm text-gray-700 dark:text-gray-300">
            Sales from every channel, newest first. New orders appear as they are placed.
          </p>
        </div>
        {selling ? null : (
          <Button onClick={() => setSelling(true)}>
            <Plus aria-hidden="true" className="h-4 w-4" />
            New sale
          </Button>
        )}
      </div>
      {selling ? <CounterSale onClose={() => setSelling(false)} /> : null}

      <Card className="p-4">
        <form
          className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end"
          aria-label="Filter orders"
          onSubmit={(e) => e.preventDefault()}
        >
          <Field label="Channel">
            <input className={selectClassName} value={channel} placeholder="All channels" onChange={(e) => setChannel(e.target.value)} />
          </Field>
          <Field label="Status">
            <select className={selectClassName} value={status} onChange={(e) => setStatus(e.target.value as OrderStatus | "")}>
              <option value="">All</option>
              <option value="completed">Completed</option>
              <option value="cancelled">Cancelled</option>
            </select>
          </Field>
          <Field label="From">
            <input type="date" className={selectClassName} value={from} onChange={(e) => setFrom(e.target.value)} />
          </Field>
          <Field label="To">
            <input type="date" className={selectClassName} value={to} onChange={(e) => setTo(e.target.value)} />
          </Field>
          <Button variant="outline" onClick={clear} disabled={!filtered}>
            Clear filters
          </Button>
        </form>
      </Card>

      {orders.isPending ? (
        <div className="flex items-center justify-center gap-3 p-8">
          <Spinner label="Loading orders" />
          <p>Loading orders...</p>
        </div>
      ) : orders.isError ? (
        <div className="flex flex-col items-center gap-3 rounded-xl border border-red-200 bg-white p-6 text-center dark:border-red-900 dark:bg-gray-900">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(orders.error)}
          </p>
          <Button variant="outline" onClick={() => void orders.refetch()} disabled={orders.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : (
        <>
          <p className="sr-only" aria-live="polite">
            {orders.data.length === 1 ? "1 order" : `${orders.data.length} orders`}
          </p>
          {orders.data.length === 0 ? (
            <p className="rounded-xl border border-gray-200 bg-white p-6 text-center dark:border-gray-700 dark:bg-gray-900">
              {filtered ? "No orders match these filters." : "No orders yet."}
            </p>
          ) : (
            <ul aria-label="Orders" className="flex flex-col gap-3">
              {orders.data.map((order) => (
                <li key={order.id}>
                  <OrderCard order={order} onOpen={() => onOpenOrder(order.id)} onCancel={() => setCancelling(order)} />
                </li>
              ))}
            </ul>
          )}
          {orders.data.length >= limit ? (
            <div className="flex justify-center">
              <Button variant="outline" onClick={() => setLimit((n) => n + PAGE)} disabled={orders.isFetching}>
                Show more
              </Button>
            </div>
          ) : null}
        </>
      )}
      {cancelling ? <CancelDialog order={cancelling} onClose={() => setCancelling(null)} /> : null}
      {orderId !== undefined && !cancelling ? <OrderDialog id={orderId} onClose={onCloseOrder} onCancel={setCancelling} /> : null}
    </section>
  );
}

function OrderCard({ order, onOpen, onCancel }: { order: Order; onOpen: () => void; onCancel: () => void }) {
  const cancelled = order.status === "cancelled";
  return (
    <Card className="flex flex-col gap-2 p-4" data-testid="order-card">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h2 className="break-words font-bold">
            {/* Opens the order's own address: a link to send, a detail a reload keeps. */}
            <button type="button" className="text-left underline-offset-2 hover:underline" onClick={onOpen}>
              {order.channel} · {order.external_id}
            </button>
          </h2>
          <OrderPlaced order={order} />
        </div>
        <StatusBadge order={order} />
      </div>
      <OrderBody order={order} />
      {cancelled ? null : (
        <div className="flex justify-end">
          <Button variant="danger" size="sm" onClick={onCancel} aria-label={`Cancel order ${order.channel} ${order.external_id}`}>
            Cancel order
          </Button>
        </div>
      )}
    </Card>
  );
}

const placedText = (order: Order) => `${new Date(order.created_at).toLocaleString()} by ${order.created_by}`;

function OrderPlaced({ order }: { order: Order }) {
  return <p className="text-sm text-gray-700 dark:text-gray-300">{placedText(order)}</p>;
}

function StatusBadge({ order }: { order: Order }) {
  return order.status === "cancelled" ? <Badge variant="danger">Cancelled</Badge> : <Badge variant="success">Completed</Badge>;
}

/** An order's lines, note, total and cancellation: the same on the list's card and in its detail. */
function OrderBody({ order }: { order: Order }) {
  const money = useMoney();
  return (
    <>
      <ul aria-label="Lines" className="divide-y divide-gray-200 text-sm dark:divide-gray-700">
        {order.lines.map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: an order's lines never change
          <li key={i} className="flex flex-wrap justify-between gap-2 py-1">
            <span className="min-w-0 break-words">
              {line.quantity} × {line.product_name} <span className="text-gray-700 dark:text-gray-300">({line.barcode})</span>
            </span>
            {line.unit_price === null ? null : <span>{money(line.unit_price)} each</span>}
          </li>
        ))}
      </ul>
      {order.note ? <p className="text-sm italic">{order.note}</p> : null}
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold">Total: {order.total === null ? "not given" : money(order.total)}</p>
        {order.status === "cancelled" ? (
          <p className="text-sm text-gray-700 dark:text-gray-300">
            Cancelled {order.cancelled_at ? new Date(order.cancelled_at).toLocaleString() : ""} by {order.cancelled_by}
          </p>
        ) : null}
      </div>
    </>
  );
}

/** One order at its address (`/orders/{id}`), over the list: opened from a card, a link or a reload. */
function OrderDialog({ id, onClose, onCancel }: { id: number; onClose: () => void; onCancel: (order: Order) => void }) {
  const order = useOrder(id);
  const notFound = order.error instanceof ApiError && order.error.status === 404;
  return (
    <Dialog
      title={order.data ? `Order ${order.data.channel} · ${order.data.external_id}` : `Order ${id}`}
      description={order.data ? placedText(order.data) : undefined}
      onClose={onClose}
      size="md"
      focusFirstField={false}
      footer={
        <>
          {order.data && order.data.status !== "cancelled" ? (
            <Button variant="danger" onClick={() => order.data && onCancel(order.data)}>
              Cancel order
            </Button>
          ) : null}
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
        </>
      }
    >
      {order.isPending ? (
        <p className="flex items-center gap-2">
          <Spinner label="Loading order" /> Loading order...
        </p>
      ) : order.isError ? (
        <p role="alert" className="font-medium text-red-800 dark:text-red-200">
          {notFound ? "There is no such order." : loadErrorText(order.error)}
        </p>
      ) : (
        <div className="flex flex-col gap-2" data-testid="order-detail">
          <StatusBadge order={order.data} />
          <OrderBody order={order.data} />
        </div>
      )}
    </Dialog>
  );
}

function CancelDialog({ order, onClose }: { order: Order; onClose: () => void }) {
  const cancel = useCancelOrder();
  const confirm = () =>
    cancel.mutate(order.id, {
      onSuccess: () => {
        notify.success(`Order ${order.external_id} cancelled: its stock is back`);
        onClose();
      },
      onError: (err) => notify.error(messageOr(err, "Failed to cancel order")),
    });
  return (
    <Dialog
      title={`Cancel order ${order.channel} ${order.external_id}?`}
      description="Every line's stock goes back on the shelf. This cannot be undone."
      onClose={onClose}
      busy={cancel.isPending}
      size="sm"
      focusFirstField={false}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={cancel.isPending}>
            Keep order
          </Button>
          <Button variant="danger" onClick={confirm} disabled={cancel.isPending}>
            {cancel.isPending ? "Cancelling..." : "Cancel order"}
          </Button>
        </>
      }
    />
  );
}
