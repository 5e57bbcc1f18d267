import { zodResolver } from "@hookform/resolvers/zod";
import { RefreshCw } from "lucide-react";
import { Switch } from "radix-ui";
import type { KeyboardEvent } from "react";
import { useId } from "react";
import { useForm } from "react-hook-form";
import { FINISH_LABELS, FINISHES } from "../../../../contract/market";
import type { ProductMarket } from "../../../../contract/prices";
import { Button } from "../../../components/ui/button";
import { Field, inputClassName, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText } from "../../../lib/http";
import { failureText, notify } from "../../notifications";
import { todayIn } from "../../reports";
import { useMoney, useSettings } from "../../settings";
import { useProductMarket } from "../api/get-product-market";
import { useUpdateProductMarket } from "../api/update-product-market";
import { ageText } from "../market-age";
import { marketSeries } from "../market-history";
import { type MarketIdsBody, type MarketIdsFormValues, marketIdsFormSchema, marketIdsFormValuesOf } from "../market-ids-form";
import { PriceSparkline } from "./price-sparkline";

export const MARKET_SAVE_FAILED = "Failed to save the market ids";
export const FREEZE_FAILED = "Failed to change the frozen price";
const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

/**
 * The Edit Product dialog's Market section: the latest market price, its feed and age, its
 * history as a small line; the price frozen or not, and the ids feeds find the product by. Saved
 * apart from the product's own fields, each as it changes (the freeze) or with its own button (the ids).
 * The dialog is for users who manage products, as the server's PUT is.
 */
export function MarketSection({ productId }: { productId: number }) {
  const id = useId();
  const market = useProductMarket(productId);
  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-2" data-testid="market-section">
      <h3 id={`${id}-title`} className="text-sm font-semibold">
        Market
      </h3>
      {market.isPending ? (
        <div className="flex items-center gap-2 text-sm">
          <Spinner label="Loading market prices" />
          Loading market prices...
        </div>
      ) : market.isError ? (
        // Not an alert: the product's own fields are what this dialog is for.
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <p className="text-red-800 dark:text-red-200">Market prices could not be loaded: {loadErrorText(market.error)}</p>
          <Button variant="outline" size="sm" onClick={() => void market.refetch()} disabled={market.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : (
        <MarketDetails productId={productId} market={market.data} />
      )}
    </section>
  );
}

function MarketDetails({ productId, market }: { productId: number; market: ProductMarket }) {
  const money = useMoney();
  const { timezone } = useSettings();
  const { latest } = market;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-gray-300 p-3 dark:border-gray-700">
      {latest ? (
        <div className="flex flex-wrap items-center justify-between gap-2" data-testid="market-latest">
          <div className="min-w-0 text-sm">
            <p>
              <span className="text-lg font-bold tabular-nums">
                {latest.market === null ? "No market price" : `Market ${money(latest.market)}`}
              </span>{" "}
              <span className="text-gray-700 dark:text-gray-300">({FINISH_LABELS[latest.finish]})</span>
            </p>
            <p className="break-words text-gray-700 dark:text-gray-300">
              {latest.feed_name} · seen <time dateTime={latest.checked_on}>{ageText(latest.checked_on, todayIn(timezone))}</time> (checked{" "}
              {latest.checked_on})
            </p>
          </div>
          <PriceSparkline points={marketSeries(market)} />
        </div>
      ) : (
        <p className="text-sm">No feed prices this product yet.</p>
      )}
      <FreezeSwitch productId={productId} frozen={market.ids.price_frozen} />
      {/* A new form when the ids change (saved here or elsewhere): its fields start from them. */}
      <MarketIdsForm key={JSON.stringify(marketIdsFormValuesOf(market.ids))} productId={productId} market={market} />
    </div>
  );
}

function FreezeSwitch({ productId, frozen }: { productId: number; frozen: boolean }) {
  const id = useId();
  const update = useUpdateProductMarket(productId);
  const change = (on: boolean) =>
    update.mutate(
      { price_frozen: on },
      {
        onSuccess: () =>
          notify.success(on ? "Price frozen: the rules leave it as it is" : "Price unfrozen: the rules may propose a new one"),
        onError: (err) => notify.error(failureText(FREEZE_FAILED, err)),
      },
    );
  return (
    <div className="flex items-center gap-3">
      <Switch.Root
        id={id}
        checked={update.isPending ? Boolean(update.variables?.price_frozen) : frozen}
        onCheckedChange={change}
        disabled={update.isPending}
        aria-describedby={`${id}-hint`}
        className="relative h-6 w-11 shrink-0 rounded-full bg-gray-400 transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600 disabled:cursor-not-allowed disabled:opacity-50 data-[state=checked]:bg-blue-700 dark:bg-gray-600 dark:data-[state=checked]:bg-blue-500"
      >
        <Switch.Thumb className="block h-5 w-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
      </Switch.Root>
      <div className="text-sm">
        <label htmlFor={id} className="font-medium">
          Freeze price
        </label>
        <p id={`${id}-hint`} className="text-xs text-gray-700 dark:text-gray-300">
          No repricing rule changes a frozen price.
        </p>
      </div>
    </div>
  );
}

function MarketIdsForm({ productId, market }: { productId: number; market: ProductMarket }) {
  const update = useUpdateProductMarket(productId);
  const form = useForm<MarketIdsFormValues, unknown, MarketIdsBody>({
    resolver: zodResolver(marketIdsFormSchema),
    defaultValues: marketIdsFormValuesOf(market.ids),
    reValidateMode: "onSubmit",
  });
  const errors = form.formState.errors;
  const saving = update.isPending;
  // Not a <form>: the section sits inside the product's form (a form in a form is not HTML).
  const save = form.handleSubmit((body) =>
    update.mutateAsync(body).then(
      () => notify.success("Market ids saved"),
      (err: unknown) => notify.error(failureText(MARKET_SAVE_FAILED, err)),
    ),
  );
  // Enter in these fields saves them, not the product.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key !== "Enter") return;
    event.preventDefault();
    void save();
  };
  return (
    <fieldset className="flex flex-col gap-3" onKeyDown={onKeyDown} data-testid="market-ids">
      <legend className="mb-1 text-sm font-medium">How feeds find it</legend>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          label="TCGplayer id"
          inputMode="numeric"
          autoComplete="off"
          error={errors.tcgplayer_product_id?.message}
          disabled={saving}
          {...form.register("tcgplayer_product_id")}
        />
        <TextField
          label="Scryfall id"
          autoComplete="off"
          error={errors.scryfall_id?.message}
          disabled={saving}
          {...form.register("scryfall_id")}
        />
        <TextField
          label="pokemontcg.io id"
          autoComplete="off"
          error={errors.pokemontcg_id?.message}
          disabled={saving}
          {...form.register("pokemontcg_id")}
        />
        <Field label="Finish" error={errors.finish?.message}>
          <select className={selectClassName} disabled={saving} {...form.register("finish")}>
            {FINISHES.map((f) => (
              <option key={f} value={f}>
                {FINISH_LABELS[f]}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <div>
        <Button variant="outline" size="sm" onClick={() => void save()} disabled={saving}>
          {saving ? "Saving..." : "Save market ids"}
        </Button>
      </div>
    </fieldset>
  );
}
