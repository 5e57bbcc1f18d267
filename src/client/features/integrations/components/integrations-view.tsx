import { Plug } from "lucide-react";
import { canManageIntegrations } from "../../../../contract/permissions";
import { AccessDenied } from "../../../components/ui/access-denied";
import { useAuth } from "../../auth";
import { WebhooksSection } from "../../webhooks";
import { TokensSection } from "./tokens-section";

/**
 * The Integrations screen (managers and super administrators): a stack of sections, one per kind
 * of integration (API tokens, webhooks).
 */
export function IntegrationsView() {
  const { user } = useAuth();
  if (!user) return null;
  if (!canManageIntegrations(user.role)) {
    return <AccessDenied text="You don't have permission to manage integrations." />;
  }
  return (
    <div className="flex flex-col gap-6">
      <div className="min-w-0">
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <Plug aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
          Integrations
        </h1>
        <p className="text-sm text-gray-700 dark:text-gray-300">Let your other sales channels and scripts keep one stock with this shop.</p>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Every call is described in the{" "}
          <a href="/api/docs" target="_blank" rel="noopener" className="font-medium text-blue-700 underline dark:text-blue-400">
            API documentation
          </a>{" "}
          (OpenAPI): try calls there with a token, or generate a client from its document.
        </p>
      </div>
      <TokensSection />
      <WebhooksSection />
    </div>
  );
}
