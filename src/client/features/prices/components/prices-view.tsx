import { Tags } from "lucide-react";
import { canManageIntegrations } from "../../../../contract/permissions";
import { AccessDenied } from "../../../components/ui/access-denied";
import { useAuth } from "../../auth";
import { FeedsSection } from "./feeds-section";
import { ReviewSection } from "./review-section";
import { RulesSection } from "./rules-section";
import { UnderMarketSection } from "./under-market-section";
import { UnmatchedSection } from "./unmatched-section";

/**
 * The Prices screen (managers and super administrators): the new prices waiting for review
 * first (the morning's work), then where market prices come from and the rules that turn them
 * into prices, the products priced under market, and the products a feed did not price, to link.
 * Stacked on a phone; feeds and rules side by side on a laptop. `onOpenProduct`: the app's, which
 * opens a product's dialog over this screen (without it, a product's link is followed as any link).
 */
export function PricesView({ onOpenProduct }: { onOpenProduct?: (id: number) => void } = {}) {
  const { user } = useAuth();
  if (!user) return null;
  if (!canManageIntegrations(user.role)) {
    return <AccessDenied text="You don't have permission to manage prices." />;
  }
  return (
    <div className="flex flex-col gap-4" data-testid="prices-view">
      <div className="min-w-0">
        <h1 className="flex items-center gap-2 text-2xl font-bold">
          <Tags aria-hidden="true" className="h-7 w-7 shrink-0 text-blue-700 dark:text-blue-400" />
          Prices
        </h1>
        <p className="text-sm text-gray-700 dark:text-gray-300">
          Market prices from your feeds, turned into new prices by your rules. Nothing changes until you accept it.
        </p>
      </div>
      <ReviewSection />
      <UnderMarketSection onOpenProduct={onOpenProduct} />
      <div className="grid grid-cols-1 items-start gap-4 lg:grid-cols-2">
        <FeedsSection />
        <RulesSection />
      </div>
      <UnmatchedSection />
    </div>
  );
}
