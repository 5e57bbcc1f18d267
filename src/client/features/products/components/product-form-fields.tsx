import type { FieldErrors, UseFormRegister } from "react-hook-form";
import { RELEASE_YEAR_MAX, RELEASE_YEAR_MIN } from "../../../../contract/rules";
import { TextField } from "../../../components/ui/field";
import { type ProductFormValues, uniqueMessages } from "../product-form";

interface Props {
  register: UseFormRegister<ProductFormValues>;
  errors: FieldErrors<ProductFormValues>;
  disabled: boolean;
  /** Server or conflict message shown under the fields. */
  formError?: string | null;
  idPrefix: string;
}

/** The five product fields; errors are listed once above them (the required message covers three). */
export function ProductFormFields({ register, errors, disabled, formError, idPrefix }: Props) {
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
      <TextField
        id={`${idPrefix}-barcode`}
        label="Barcode *"
        autoComplete="off"
        spellCheck={false}
        disabled={disabled}
        invalid={Boolean(errors.barcode)}
        {...register("barcode")}
      />
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
    </div>
  );
}
