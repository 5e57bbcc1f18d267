import type { ReactNode } from "react";
import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { CONDITIONS, GRADERS, RELEASE_YEAR_MAX, RELEASE_YEAR_MIN } from "../../../../contract/rules";
import { Field, inputClassName, TextField } from "../../../components/ui/field";
import { cn } from "../../../lib/cn";
import { useSettings } from "../../settings";
import { type ProductFormValues, uniqueMessages } from "../product-form";

interface Props {
  register: UseFormRegister<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
  disabled: boolean;
  /** Server or conflict message shown under the fields. */
  formError?: string | null;
  idPrefix: string;
  /** Shown next to the barcode (the add dialog's "Generate shop code"). */
  barcodeAction?: ReactNode;
}

const selectClassName = cn(inputClassName, "border-gray-400 dark:border-gray-600");

/** The spec's five product fields, then the card details; errors are listed once above them (the required message covers three). */
export function ProductFormFields({ register, errors, disabled, formError, idPrefix, barcodeAction }: Props) {
  const { currency } = useSettings();
  const messages = uniqueMessages(errors);
  return (
    <div className="flex flex-col gap-3">
      {messages.length > 0 || formError ? (
        <div
          role="alert"
          className="rounded-lg border border-red-300 bg-red-50 p-3 text-sm font-medium text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200"
        >
          {messages.map((m) => (
            <p key={m}>{m}</p>
          ))}
          {formError ? <p>{formError}</p> : null}
        </div>
      ) : null}
      <div className="flex items-end gap-2">
        <TextField
          id={`${idPrefix}-barcode`}
          label="Barcode *"
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          invalid={Boolean(errors.barcode)}
          fieldClassName="min-w-0 flex-1"
          {...register("barcode")}
        />
        {barcodeAction}
      </div>
      <TextField
        id={`${idPrefix}-product-name`}
        label="Product Name *"
        autoComplete="off"
        disabled={disabled}
        invalid={Boolean(errors.product_name)}
        {...register("product_name")}
      />
      <TextField
        id={`${idPrefix}-vendor`}
        label="Vendor *"
        autoComplete="off"
        disabled={disabled}
        invalid={Boolean(errors.vendor)}
        {...register("vendor")}
      />
      <div className="grid grid-cols-2 gap-3">
        <TextField
          id={`${idPrefix}-release-year`}
          label="Release Year"
          type="number"
          inputMode="numeric"
          min={RELEASE_YEAR_MIN}
          max={RELEASE_YEAR_MAX}
          step={1}
          placeholder="e.g. 2024"
          disabled={disabled}
          invalid={Boolean(errors.release_year)}
          {...register("release_year")}
        />
        <TextField
          id={`${idPrefix}-quantity`}
          label="Quantity"
          type="number"
          inputMode="numeric"
          min={0}
          step={1}
          disabled={disabled}
          invalid={Boolean(errors.quantity_on_hand)}
          {...register("quantity_on_hand")}
        />
      </div>
      <fieldset className="flex flex-col gap-3 rounded-lg border border-gray-300 p-3 dark:border-gray-700">
        <legend className="px-1 text-sm font-semibold">Details</legend>
        <div className="grid grid-cols-2 gap-3">
          <TextField
            id={`${idPrefix}-price`}
            label={`Price (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 12.50"
            disabled={disabled}
            invalid={Boolean(errors.price)}
            {...register("price")}
          />
          <TextField
            id={`${idPrefix}-cost`}
            label={`Cost (${currency})`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="e.g. 8.00"
            disabled={disabled}
            invalid={Boolean(errors.cost)}
            {...register("cost")}
          />
        </div>
        <Field label="Condition" id={`${idPrefix}-condition`}>
          <select className={selectClassName} disabled={disabled} {...register("condition")}>
            <option value="">Not set</option>
            {CONDITIONS.map((c) => (
              <option key={c} value={c}>
                {c}
              </option>
            ))}
          </select>
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label="Grader" id={`${idPrefix}-grader`}>
            <select className={selectClassName} disabled={disabled} {...register("grader")}>
              <option value="">Not graded</option>
              {GRADERS.map((g) => (
                <option key={g} value={g}>
                  {g}
                </option>
              ))}
            </select>
          </Field>
          <TextField
            id={`${idPrefix}-grade`}
            label="Grade"
            autoComplete="off"
            placeholder="e.g. 10, 9.5"
            disabled={disabled}
            invalid={Boolean(errors.grade)}
            {...register("grade")}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <TextField
            id={`${idPrefix}-set-name`}
            label="Set"
            autoComplete="off"
            placeholder="e.g. 2023 Prizm"
            disabled={disabled}
            invalid={Boolean(errors.set_name)}
            {...register("set_name")}
          />
          <TextField
            id={`${idPrefix}-card-number`}
            label="Card number"
            autoComplete="off"
            placeholder="e.g. 136"
            disabled={disabled}
            invalid={Boolean(errors.card_number)}
            {...register("card_number")}
          />
        </div>
        <div className="grid grid-cols-2 gap-3">
          <TextField
            id={`${idPrefix}-location`}
            label="Location"
            autoComplete="off"
            placeholder="Bin, binder or case"
            disabled={disabled}
            invalid={Boolean(errors.location)}
            {...register("location")}
          />
          <TextField
            id={`${idPrefix}-reorder-point`}
            label="Reorder point"
            type="number"
            inputMode="numeric"
            min={0}
            step={1}
            placeholder="Not set"
            disabled={disabled}
            invalid={Boolean(errors.reorder_point)}
            {...register("reorder_point")}
          />
        </div>
      </fieldset>
    </div>
  );
}
