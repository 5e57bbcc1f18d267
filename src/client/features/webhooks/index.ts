// Webhooks: endpoints, their secrets (shown once) and delivery logs. Shown in the Integrations view,
// which loads lazily: nothing here is part of the first screen.
export { WebhooksSection } from "./components/webhooks-section";
