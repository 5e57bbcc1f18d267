import { ChevronDown, ChevronRight, Plus, Send, Trash2, Webhook as WebhookIcon } from "lucide-react";
import { useState } from "react";
import type { Webhook } from "../../../../contract/webhooks";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { notify } from "../../notifications";
import { useDeleteWebhook } from "../api/delete-webhook";
import { useWebhooks } from "../api/list-webhooks";
import { useSendTestDelivery } from "../api/send-test-delivery";
import { useUpdateWebhook } from "../api/update-webhook";
import { AddWebhookDialog, EVENT_LABELS } from "./add-webhook-dialog";
import { DeliveryLog } from "./delivery-log";

const when = (iso: string) => new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" }).format(new Date(iso));

function eventsText(events: string[]): string {
  if (events.includes("*")) return "All events";
  return events.map((e) => EVENT_LABELS[e as keyof typeof EVENT_LABELS] ?? e).join(", ");
}

function WebhookCard({ webhook }: { webhook: Webhook }) {
  const [showLog, setShowLog] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const test = useSendTestDelivery();
  const logId = `webhook-${webhook.id}-log`;

  const toggle = () =>
    update.mutate(
      { id: webhook.id, body: { enabled: !webhook.enabled } },
      { onError: (err) => notify.error(messageOr(err, "Failed to update the webhook")) },
    );
  const sendTest = () =>
    test.mutate(webhook.id, {
      onSuccess: () => {
        notify.success("Test delivery queued");
        setShowLog(true);
      },
      onError: (err) => notify.error(messageOr(err, "Failed to send a test")),
    });

  return (
    <article
      aria-label={webhook.url}
      className="flex flex-col gap-3 rounded-xl border border-gray-200 bg-white p-4 dark:border-gray-700 dark:bg-gray-900"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="break-all font-mono text-sm font-semibold">{webhook.url}</p>
          {webhook.description ? <p className="text-sm text-gray-700 dark:text-gray-300">{webhook.description}</p> : null}
          <p className="text-xs text-gray-600 dark:text-gray-400">
            {eventsText(webhook.events)} · added {when(webhook.created_at)}
          </p>
        </div>
        {webhook.enabled ? <Badge variant="success">Enabled</Badge> : <Badge variant="neutral">Disabled</Badge>}
      </div>
      {webhook.disabled_reason ? (
        <p role="status" className="rounded-md bg-red-50 p-2 text-sm font-medium text-red-900 dark:bg-red-950 dark:text-red-100">
          {webhook.disabled_reason}
          {webhook.failing_since ? ` (failing since ${when(webhook.failing_since)})` : ""}. Fix the endpoint, then enable it again.
        </p>
      ) : webhook.failing_since ? (
        <p role="status" className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 dark:bg-amber-950 dark:text-amber-100">
          Failing since {when(webhook.failing_since)}: deliveries are being retried. It is disabled after 24 hours of failures.
        </p>
      ) : null}
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={sendTest} disabled={test.isPending}>
          <Send aria-hidden="true" className="h-3.5 w-3.5" />
          Send test
        </Button>
        <Button size="sm" variant="outline" onClick={toggle} disabled={update.isPending}>
          {webhook.enabled ? "Disable" : "Enable"}
        </Button>
        <Button size="sm" variant="outline" aria-expanded={showLog} aria-controls={logId} onClick={() => setShowLog((s) => !s)}>
          {showLog ? (
            <ChevronDown aria-hidden="true" className="h-3.5 w-3.5" />
          ) : (
            <ChevronRight aria-hidden="true" className="h-3.5 w-3.5" />
          )}
          Delivery log
        </Button>
        <Button size="sm" variant="danger" onClick={() => setConfirmDelete(true)} disabled={remove.isPending}>
          <Trash2 aria-hidden="true" className="h-3.5 w-3.5" />
          Delete
        </Button>
      </div>
      {showLog ? (
        <div id={logId}>
          <DeliveryLog webhookId={webhook.id} label={`Deliveries to ${webhook.url}`} />
        </div>
      ) : null}
      {confirmDelete ? (
        <Dialog
          onClose={() => setConfirmDelete(false)}
          title="Delete webhook?"
          description={`${webhook.url} stops receiving events, and its delivery log is deleted.`}
          busy={remove.isPending}
          size="sm"
          footer={
            <>
              <Button variant="outline" onClick={() => setConfirmDelete(false)}>
                Cancel
              </Button>
              <Button
                variant="danger"
                onClick={() =>
                  remove.mutate(webhook.id, {
                    onSuccess: () => notify.success("Webhook deleted"),
                    onError: (err) => notify.error(messageOr(err, "Failed to delete the webhook")),
                    onSettled: () => setConfirmDelete(false),
                  })
                }
              >
                Delete webhook
              </Button>
            </>
          }
        />
      ) : null}
    </article>
  );
}

/** Webhooks in the Integrations view: endpoints that hear of every committed change, signed. */
export function WebhooksSection() {
  const webhooks = useWebhooks();
  const [adding, setAdding] = useState(false);
  return (
    <section aria-labelledby="webhooks-title" className="flex flex-col gap-3">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0">
          <h2 id="webhooks-title" className="flex items-center gap-2 text-xl font-bold">
            <WebhookIcon aria-hidden="true" className="h-6 w-6 shrink-0 text-blue-700 dark:text-blue-400" />
            Webhooks
          </h2>
          <p className="text-sm text-gray-700 dark:text-gray-300">
            Tell your other sales channels about every change at once: each endpoint gets a signed POST per event.
          </p>
        </div>
        <Button onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add endpoint
        </Button>
      </div>
      {webhooks.isPending ? (
        <div className="flex items-center gap-2 p-4">
          <Spinner label="Loading webhooks" />
          Loading webhooks...
        </div>
      ) : webhooks.isError ? (
        <p role="alert" className="p-4 text-red-800 dark:text-red-200">
          {loadErrorText(webhooks.error)}
        </p>
      ) : webhooks.data.length === 0 ? (
        <p className="rounded-xl border border-gray-200 bg-white p-4 text-center dark:border-gray-700 dark:bg-gray-900">No webhooks yet.</p>
      ) : (
        <ul aria-label="Webhooks" className="flex flex-col gap-3">
          {webhooks.data.map((w) => (
            <li key={w.id}>
              <WebhookCard webhook={w} />
            </li>
          ))}
        </ul>
      )}
      {adding ? <AddWebhookDialog onClose={() => setAdding(false)} /> : null}
    </section>
  );
}
