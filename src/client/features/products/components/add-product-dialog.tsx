import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { newShopCode, useCreateProduct } from "../api/create-product";
import { ADD_FAILED, EMPTY_PRODUCT_FORM, type ProductFormOutput, type ProductFormValues, productFormSchema } from "../product-form";
import { productNameOf } from "../product-name";
import { ProductFormFields } from "./product-form-fields";

// Pure: screens that import the products feature without this dialog leave it out of their bundle.
const schema = /* @__PURE__ */ productFormSchema("add");

export interface AddProductDialogProps {
  onClose: () => void;
  /** Barcode filled in (scan to add). */
  initialBarcode?: string;
  /**
   * Offers "Print labels after adding": called, instead of onClose, with the product just added
   * when that was chosen. The view that shows this dialog opens the labels next.
   */
  onPrintLabels?: (product: Product) => void;
}

/** 'Add New Product': the contract's rules, integers, inputs disabled while saving. */
export function AddProductDialog({ onClose, initialBarcode, onPrintLabels }: AddProductDialogProps) {
  const create = useCreateProduct();
  const printId = useId();
  const [printAfter, setPrintAfter] = useState(false);
  const [generating, setGenerating] = useState(false);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { ...EMPTY_PRODUCT_FORM, barcode: initialBarcode ?? "" },
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const saving = create.isPending || form.formState.isSubmitting;

  async function generateShopCode() {
    setServerError(null);
    setGenerating(true);
    try {
      form.setValue("barcode", await newShopCode(), { shouldDirty: true });
    } catch (err) {
      setServerError(messageOr(err, "Failed to generate a shop code"));
    } finally {
      setGenerating(false);
    }
  }

  const onSubmit = form.handleSubmit(async (body) => {
    setServerError(null);
    try {
      const product = await create.mutateAsync(body);
      notify.success(`Added ${productNameOf(product)}`);
      if (printAfter && onPrintLabels) onPrintLabels(product);
      else onClose();
    } catch (err) {
      setServerError(messageOr(err, ADD_FAILED));
    }
  });

  return (
    <Dialog onClose={onClose} busy={saving} title="Add New Product">
      <form id="add-product-form" onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4">
        <ProductFormFields
          register={form.register}
          errors={form.formState.errors}
          disabled={saving}
          formError={serverError}
          idPrefix="add-product"
          barcodeAction={
            <Button variant="secondary" onClick={() => void generateShopCode()} disabled={saving || generating}>
              {generating ? "Generating..." : "Generate shop code"}
            </Button>
          }
        />
        {onPrintLabels ? (
          <label htmlFor={printId} className="flex items-center gap-2 text-sm">
            <input
              id={printId}
              type="checkbox"
              className="size-4"
              checked={printAfter}
              onChange={(e) => setPrintAfter(e.target.checked)}
              disabled={saving}
            />
            Print labels after adding
          </label>
        ) : null}
        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="secondary" onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" disabled={saving}>
            {saving ? "Adding..." : "Add Product"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
