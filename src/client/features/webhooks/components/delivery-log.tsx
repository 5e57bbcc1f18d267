import { RotateCw } from "lucide-react";
import type { WebhookDelivery } from "../../../../contract/webhooks";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { notify } from "../../notifications";
import { useDeliveries } from "../api/list-deliveries";
import { useRetryDelivery } from "../api/retry-delivery";

const STATUS: Record<WebhookDelivery["status"], { label: string; variant: BadgeVariant }> = {
  pending: { label: "Pending", variant: "warning" },
  succeeded: { label: "Delivered", variant: "success" },
  failed: { label: "Failed", variant: "danger" },
};

const time = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "short", timeStyle: "medium" }).format(new Date(iso));

function lastAnswer(d: WebhookDelivery): string {
  if (d.attempts === 0) return "Not sent yet";
  if (d.last_error) return d.last_error;
  return d.last_status === null ? "No answer" : `HTTP ${d.last_status}`;
}

function nextTry(d: WebhookDelivery): string {
  if (d.status !== "pending") return "None";
  return d.next_attempt_at ? time(d.next_attempt_at) : "After the product's earlier delivery";
}

/** One endpoint's deliveries, newest first: status, attempts, last answer, next try, Retry. */
export function DeliveryLog({ webhookId, label }: { webhookId: number; label: string }) {
  const deliveries = useDeliveries(webhookId);
  const retry = useRetryDelivery();

  if (deliveries.isPending) {
    return (
      <div className="flex items-center gap-2 p-3 text-sm">
        <Spinner label="Loading deliveries" />
        Loading deliveries...
      </div>
    );
  }
  if (deliveries.isError) {
    return (
      <p role="alert" className="p-3 text-sm text-red-800 dark:text-red-200">
        {loadErrorText(deliveries.error)}
      </p>
    );
  }
  if (deliveries.data.length === 0) return <p className="p-3 text-sm text-gray-700 dark:text-gray-300">No deliveries yet.</p>;

  return (
    <div className="overflow-x-auto">
      <table aria-label={label} className="w-full text-left text-sm">
        <thead className="text-xs uppercase text-gray-700 dark:text-gray-300">
          <tr>
            <th scope="col" className="p-2">
              Event
            </th>
            <th scope="col" className="p-2">
              Status
            </th>
            <th scope="col" className="p-2">
              Attempts
            </th>
            <th scope="col" className="p-2">
              Last answer
            </th>
            <th scope="col" className="p-2">
              Next try
            </th>
            <th scope="col" className="p-2">
              Created
            </th>
            <th scope="col" className="p-2">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {deliveries.data.map((d) => (
            <tr key={d.id} className="border-t border-gray-200 dark:border-gray-700">
              <td className="p-2 font-mono text-xs">{d.type}</td>
              <td className="p-2">
                <Badge variant={STATUS[d.status].variant}>{STATUS[d.status].label}</Badge>
              </td>
              <td className="p-2">{d.attempts}</td>
              <td className="max-w-64 truncate p-2" title={lastAnswer(d)}>
                {lastAnswer(d)}
              </td>
              <td className="p-2">{nextTry(d)}</td>
              <td className="whitespace-nowrap p-2">{time(d.created_at)}</td>
              <td className="p-2">
                <Button
                  size="sm"
                  variant="outline"
                  aria-label={`Retry delivery ${d.id}`}
                  disabled={retry.isPending}
                  onClick={() =>
                    retry.mutate(
                      { webhookId, deliveryId: d.id },
                      {
                        onSuccess: () => notify.success("Delivery queued to be sent again"),
                        onError: (err) => notify.error(messageOr(err, "Failed to retry the delivery")),
                      },
                    )
                  }
                >
                  <RotateCw aria-hidden="true" className="h-3.5 w-3.5" />
                  Retry
                </Button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
