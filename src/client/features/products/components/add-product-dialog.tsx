import { zodResolver } from "@hookform/resolvers/zod";
import { useId, useState } from "react";
import { useForm } from "react-hook-form";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { addPhoto } from "../api/add-photo";
import { newShopCode, useCreateProduct } from "../api/create-product";
import { PendingPhotos } from "../photos/pending-photos";
import { ADD_FAILED, EMPTY_PRODUCT_FORM, type ProductFormOutput, type ProductFormValues, productFormSchema } from "../product-form";
import { productNameOf } from "../product-name";
import { useProductStore } from "../store/product-store-provider";
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
  /** Photos picked before the product exists: sent in their order once it is added. */
  const [photos, setPhotos] = useState<File[]>([]);
  const [sendingPhotos, setSendingPhotos] = useState(false);
  const store = useProductStore();
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { ...EMPTY_PRODUCT_FORM, barcode: initialBarcode ?? "" },
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const saving = create.isPending || form.formState.isSubmitting || sendingPhotos;

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
      let product = await create.mutateAsync(body);
      product = await sendPhotos(product);
      notify.success(`Added ${productNameOf(product)}`);
      if (printAfter && onPrintLabels) onPrintLabels(product);
      else onClose();
    } catch (err) {
      setServerError(messageOr(err, ADD_FAILED));
    }
  });

  /** The picked photos, one after the other in their order; a refused one is reported and the others still go. */
  async function sendPhotos(product: Product): Promise<Product> {
    if (photos.length === 0) return product;
    setSendingPhotos(true);
    let latest = product;
    try {
      for (const file of photos) {
        try {
          latest = (await addPhoto(product.id, file, file.name)).product;
          store.put(latest);
        } catch (err) {
          notify.error(`${file.name}: ${messageOr(err, "Failed to add the photo")}`);
        }
      }
    } finally {
      setSendingPhotos(false);
    }
    return latest;
  }

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
        <PendingPhotos files={photos} onChange={setPhotos} disabled={saving} name={form.watch("product_name")} />
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
            {sendingPhotos ? "Adding photos..." : saving ? "Adding..." : "Add Product"}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
