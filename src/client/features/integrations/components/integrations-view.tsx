import { Plug } from "lucide-react";
import { WebhooksSection } from "../../webhooks";

/** Integrations (managers and super_admin): what connects the shop's other sales channels. */
export function IntegrationsView() {
  return (
    <div className="flex flex-col gap-6">
      <div>
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <Plug aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
          Integrations
        </h1>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Connect marketplaces, a web store or a script on the shop's network to one stock.
        </p>
      </div>
      <WebhooksSection />
    </div>
  );
}
