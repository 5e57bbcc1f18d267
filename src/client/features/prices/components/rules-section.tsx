import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, RefreshCw, Trash2 } from "lucide-react";
import { useId } from "react";
import { useFieldArray, useForm } from "react-hook-form";
import { OVERRIDES_MAX, type PricingRules, ROUNDING_LABELS, ROUNDINGS, RULE_ORDER } from "../../../../contract/pricing-rules";
import { CONDITIONS } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Field, FieldError, inputClassName, TextField } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { loadErrorText, messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { useSettings } from "../../settings";
import { useRules } from "../api/get-rules";
import { useSaveRules } from "../api/save-rules";
import { NEW_OVERRIDE, type RulesFormValues, rulesFormSchema, rulesFormValuesOf } from "../rules-form";
import { Panel } from "./panel";

export const SAVE_RULES_FAILED = "Failed to save the rules";
const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

/** The repricing rules: the order they apply in, in words, and the form that sets them. */
export function RulesSection() {
  const id = useId();
  const rules = useRules();
  return (
    <Panel
      titleId={`${id}-title`}
      title="Repricing rules"
      description="How a market price becomes a proposed price. Saving makes every waiting proposal again with the new rules."
      testId="prices-rules"
    >
      <RuleOrder />
      {rules.isPending ? (
        <div className="flex items-center gap-2 p-2">
          <Spinner label="Loading rules" />
          Loading rules...
        </div>
      ) : rules.isError ? (
        <div className="flex flex-col items-start gap-2 p-2">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(rules.error)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void rules.refetch()} disabled={rules.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : (
        // A new form for rules saved elsewhere (another manager): its fields start from them.
        <RulesForm key={JSON.stringify(rules.data)} rules={rules.data} />
      )}
    </Panel>
  );
}

/** RULE_ORDER as the numbered steps every proposal goes through. */
function RuleOrder() {
  const id = useId();
  return (
    <div>
      <h3 id={id} className="text-sm font-semibold">
        The order they apply in
      </h3>
      <ol aria-labelledby={id} className="mt-1 flex list-decimal flex-col gap-1 pl-6 text-sm" data-testid="rule-order">
        {RULE_ORDER.map((rule) => (
          <li key={rule.id}>
            <span className="font-medium">{rule.label}</span>: {rule.description}
          </li>
        ))}
      </ol>
    </div>
  );
}

const percentProps = { inputMode: "numeric" as const, autoComplete: "off" };

function RulesForm({ rules }: { rules: PricingRules }) {
  const id = useId();
  const save = useSaveRules();
  const { currency } = useSettings();
  const form = useForm<RulesFormValues, unknown, PricingRules>({
    resolver: zodResolver(rulesFormSchema),
    defaultValues: rulesFormValuesOf(rules),
    reValidateMode: "onSubmit",
  });
  const overrides = useFieldArray({ control: form.control, name: "overrides" });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const errors = form.formState.errors;
  const saving = save.isPending;

  const onSubmit = form.handleSubmit(async (values) => {
    setServerError(null);
    try {
      // The saved rules replace the loaded ones, and the form starts again from them (its key).
      await save.mutateAsync(values);
      notify.success("Rules saved: the proposals were made again with them");
    } catch (err) {
      setServerError(messageOr(err, SAVE_RULES_FAILED));
    }
  });

  return (
    <form onSubmit={onSubmit} onChange={clearErrors} noValidate aria-label="Repricing rules" className="flex flex-col gap-4">
      <fieldset className="flex flex-col gap-2 rounded-lg border border-gray-300 p-3 dark:border-gray-700">
        <legend className="px-1 text-sm font-semibold">Percent of the market price, by condition</legend>
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {CONDITIONS.map((condition) => (
            <TextField
              key={condition}
              label={`${condition} %`}
              error={errors.condition_percent?.[condition]?.message}
              disabled={saving}
              {...percentProps}
              {...form.register(`condition_percent.${condition}`)}
            />
          ))}
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-2 rounded-lg border border-gray-300 p-3 dark:border-gray-700">
        <legend className="px-1 text-sm font-semibold">Vendor and set overrides</legend>
        <p className="text-xs text-gray-700 dark:text-gray-300">
          The first one that matches a product applies (its percent of the price so far).
        </p>
        {overrides.fields.length === 0 ? <p className="text-sm">No overrides.</p> : null}
        <ol className="flex flex-col gap-3">
          {overrides.fields.map((field, i) => {
            const rowErrors = errors.overrides?.[i];
            // "Needs a vendor or a set" is the match's own, not either field's.
            const matchError = rowErrors?.match?.message;
            return (
              <li key={field.id} className="flex flex-col gap-1" data-testid="override-row">
                <div className="flex flex-wrap items-end gap-2">
                  <span className="pb-2 text-sm font-semibold" aria-hidden="true">
                    {i + 1}.
                  </span>
                  <TextField
                    label={`Override ${i + 1} vendor`}
                    fieldClassName="min-w-32 flex-1"
                    error={rowErrors?.match?.vendor?.message}
                    disabled={saving}
                    {...form.register(`overrides.${i}.match.vendor`)}
                  />
                  <TextField
                    label={`Override ${i + 1} set`}
                    fieldClassName="min-w-32 flex-1"
                    error={rowErrors?.match?.set_name?.message}
                    disabled={saving}
                    {...form.register(`overrides.${i}.match.set_name`)}
                  />
                  <TextField
                    label={`Override ${i + 1} %`}
                    fieldClassName="w-24"
                    error={rowErrors?.percent?.message}
                    disabled={saving}
                    {...percentProps}
                    {...form.register(`overrides.${i}.percent`)}
                  />
                  <Button
                    variant="outline"
                    size="icon"
                    aria-label={`Remove override ${i + 1}`}
                    onClick={() => overrides.remove(i)}
                    disabled={saving}
                  >
                    <Trash2 aria-hidden="true" className="h-4 w-4" />
                  </Button>
                </div>
                <FieldError>{matchError}</FieldError>
              </li>
            );
          })}
        </ol>
        <div>
          <Button
            variant="outline"
            size="sm"
            onClick={() => overrides.append(NEW_OVERRIDE)}
            disabled={saving || overrides.fields.length >= OVERRIDES_MAX}
          >
            <Plus aria-hidden="true" className="h-4 w-4" />
            Add override
          </Button>
        </div>
        <FieldError>{errors.overrides?.message ?? errors.overrides?.root?.message}</FieldError>
      </fieldset>

      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <TextField
          label="Floor"
          hint={`The least price, as an amount in ${currency}. Empty: no floor.`}
          inputMode="decimal"
          autoComplete="off"
          error={errors.floor_cents?.message}
          disabled={saving}
          {...form.register("floor_cents")}
        />
        <TextField
          label="Minimum margin %"
          hint="Over the product's cost. Empty: no minimum."
          error={errors.min_margin_percent?.message}
          disabled={saving}
          {...percentProps}
          {...form.register("min_margin_percent")}
        />
        <Field label="Rounding" error={errors.rounding?.message}>
          <select className={selectClassName} disabled={saving} {...form.register("rounding")}>
            {ROUNDINGS.map((r) => (
              <option key={r} value={r}>
                {ROUNDING_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
        <TextField
          label="Big move %"
          hint="A move over this is flagged for a closer look."
          error={errors.big_move_percent?.message}
          disabled={saving}
          {...percentProps}
          {...form.register("big_move_percent")}
        />
        <TextField
          label="Auto-apply under %"
          hint="Smaller moves apply without review. Empty: every change waits for review."
          error={errors.auto_apply_under_percent?.message}
          disabled={saving}
          {...percentProps}
          {...form.register("auto_apply_under_percent")}
        />
      </div>
      <FieldError id={`${id}-error`}>{serverError}</FieldError>
      <div className="flex justify-end">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving..." : "Save rules"}
        </Button>
      </div>
    </form>
  );
}
