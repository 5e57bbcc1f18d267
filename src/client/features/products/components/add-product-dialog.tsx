import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { useCreateProduct } from "../api/create-product";
import { ADD_FAILED, EMPTY_PRODUCT_FORM, type ProductFormOutput, type ProductFormValues, productFormSchema } from "../product-form";
import { productNameOf } from "../product-name";
import { ProductFormFields } from "./product-form-fields";

// Pure: screens that import the products feature without this dialog leave it out of their bundle.
const schema = /* @__PURE__ */ productFormSchema("add");

export interface AddProductDialogProps {
  onClose: () => void;
  /** Barcode filled in (scan to add). */
  initialBarcode?: string;
}

/** 'Add New Product': the contract's rules, integers, inputs disabled while saving. */
export function AddProductDialog({ onClose, initialBarcode }: AddProductDialogProps) {
  const create = useCreateProduct();
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: { ...EMPTY_PRODUCT_FORM, barcode: initialBarcode ?? "" },
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const saving = create.isPending || form.formState.isSubmitting;

  const onSubmit = form.handleSubmit(async (body) => {
    setServerError(null);
    try {
      const product = await create.mutateAsync(body);
      notify.success(`Added ${productNameOf(product)}`);
      onClose();
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
        />
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
