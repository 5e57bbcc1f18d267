import { Check, Copy } from "lucide-react";
import { type FormEvent, useState } from "react";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType, webhookUrlProblem } from "../../../../contract/webhooks";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, Input, Label, TextField } from "../../../components/ui/field";
import { messageOr } from "../../../lib/http";
import { useCreateWebhook } from "../api/create-webhook";

export const EVENT_LABELS: Record<WebhookEventType, string> = {
  "inventory.quantity_changed": "Stock changed",
  "product.created": "Product created",
  "product.updated": "Product edited",
  "product.status_changed": "Product disabled or enabled",
  "products.imported": "Import finished",
  "product.low_stock": "Stock at its reorder point",
  "order.created": "Order placed",
  "order.cancelled": "Order cancelled",
  "webhook.test": "Test deliveries",
};

/** Add an endpoint: URL, description, events; then its secret, shown once with a copy button. */
export function AddWebhookDialog({ onClose }: { onClose: () => void }) {
  const create = useCreateWebhook();
  const [url, setUrl] = useState("");
  const [description, setDescription] = useState("");
  const [all, setAll] = useState(true);
  const [events, setEvents] = useState<WebhookEventType[]>(["inventory.quantity_changed"]);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [copied, setCopied] = useState(false);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const problem = webhookUrlProblem(url.trim());
    if (problem) return setError(problem);
    if (!all && events.length === 0) return setError("Choose at least one event, or all events");
    setError(null);
    create.mutate(
      { url: url.trim(), description: description.trim(), events: all ? ["*"] : events },
      { onSuccess: (created) => setSecret(created.secret), onError: (err) => setError(messageOr(err, "Failed to add webhook")) },
    );
  };

  const copy = async () => {
    if (!secret) return;
    try {
      await navigator.clipboard.writeText(secret);
      setCopied(true);
    } catch {
      setError("Copying failed: select the secret and copy it yourself");
    }
  };

  if (secret) {
    return (
      <Dialog
        onClose={onClose}
        title="Webhook added"
        description="Copy the signing secret now: it is not shown again."
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <div className="flex flex-col gap-3">
          <Label htmlFor="webhook-secret">Signing secret</Label>
          <div className="flex gap-2">
            <Input id="webhook-secret" readOnly value={secret} className="font-mono" onFocus={(e) => e.currentTarget.select()} />
            <Button variant="outline" onClick={() => void copy()} aria-label="Copy secret">
              {copied ? <Check aria-hidden="true" className="h-4 w-4" /> : <Copy aria-hidden="true" className="h-4 w-4" />}
              {copied ? "Copied" : "Copy"}
            </Button>
          </div>
          <p className="text-sm text-gray-700 dark:text-gray-300">
            The receiver checks each delivery's <code>webhook-signature</code> with it (Standard Webhooks). See{" "}
            <code>examples/webhook-receiver</code>.
          </p>
          <FieldError>{error}</FieldError>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      onClose={onClose}
      title="Add webhook endpoint"
      busy={create.isPending}
      footer={
        <>
          <Button variant="outline" onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button type="submit" form="add-webhook-form" disabled={create.isPending}>
            {create.isPending ? "Adding..." : "Add endpoint"}
          </Button>
        </>
      }
    >
      <form id="add-webhook-form" onSubmit={submit} className="flex flex-col gap-4" noValidate>
        <TextField
          label="Endpoint URL"
          type="url"
          value={url}
          placeholder="https://sync.example.com/blez"
          hint="An http(s) address. One on this computer or the shop's network only when the server's WEBHOOK_ALLOWED_HOSTS setting allows it."
          onChange={(e) => {
            setUrl(e.target.value);
            setError(null);
          }}
          disabled={create.isPending}
        />
        <TextField
          label="Description"
          value={description}
          placeholder="eBay stock sync"
          maxLength={200}
          onChange={(e) => setDescription(e.target.value)}
          disabled={create.isPending}
        />
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 text-sm font-medium">Events</legend>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={all} onChange={(e) => setAll(e.target.checked)} disabled={create.isPending} />
            All events
          </label>
          {all
            ? null
            : WEBHOOK_EVENT_TYPES.map((type) => (
                <label key={type} className="flex items-center gap-2 pl-4 text-sm">
                  <input
                    type="checkbox"
                    checked={events.includes(type)}
                    onChange={(e) => setEvents((old) => (e.target.checked ? [...old, type] : old.filter((t) => t !== type)))}
                    disabled={create.isPending}
                  />
                  {EVENT_LABELS[type]} <code className="text-xs text-gray-600 dark:text-gray-400">{type}</code>
                </label>
              ))}
        </fieldset>
        <FieldError>{error}</FieldError>
      </form>
    </Dialog>
  );
}
