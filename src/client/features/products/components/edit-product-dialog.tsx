import { zodResolver } from "@hookform/resolvers/zod";
import { lazy, Suspense, useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import type { Product } from "../../../../contract/products";
import { EDITABLE_FIELDS, type EditableField } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications";
import { MarketSection } from "../../prices";
import { useUpdateProduct, versionConflict } from "../api/update-product";
import { PhotoEditor } from "../photos/photo-editor";
import {
  changedFields,
  type EditableValues,
  editableOf,
  formValuesOf,
  type ProductFormOutput,
  type ProductFormValues,
  productFormSchema,
  UPDATE_FAILED,
} from "../product-form";
import { productNameOf } from "../product-name";
import { useProduct, useProductStore } from "../store/product-store-provider";
import { type Conflict, EditConflict } from "./edit-conflict";
import { ProductFormFields } from "./product-form-fields";

const ProductPhotosDialog = lazy(() => import("../photos/product-photos-dialog").then((m) => ({ default: m.ProductPhotosDialog })));

// Pure: screens that import the products feature without this dialog leave it out of their bundle.
const schema = /* @__PURE__ */ productFormSchema("edit");

export interface EditProductDialogProps {
  product: Product;
  onClose: () => void;
}

const isEditable = (f: string): f is EditableField => (EDITABLE_FIELDS as readonly string[]).includes(f);

/**
 * 'Edit Product' on the live product: fields the user has not touched follow the store's copy,
 * and Save sends only the fields the user changed, with the version the dialog opened with, so
 * changes others made meanwhile to other fields (e.g. stock sold) are kept. A 409 names the
 * fields both changed.
 */
export function EditProductDialog({ product, onClose }: EditProductDialogProps) {
  const store = useProductStore();
  const update = useUpdateProduct();
  const [opened] = useState(() => store.get(product.id) ?? product);
  const live = useProduct(product.id) ?? opened;
  /** Per field, the value the user's input started from (what "changed" is measured against). */
  const base = useRef<EditableValues>(editableOf(opened));
  const [conflict, setConflict] = useState<Conflict | null>(null);
  /** The photo the viewer shows, while it is open. */
  const [viewing, setViewing] = useState<number | null>(null);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: formValuesOf(opened),
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const saving = update.isPending || form.formState.isSubmitting;

  // Another user's change shows in the fields this user has not touched.
  useEffect(() => {
    const shown = formValuesOf(base.current);
    const next = formValuesOf(live);
    for (const field of EDITABLE_FIELDS) {
      if (live[field] === base.current[field] || form.getValues(field) !== shown[field]) continue;
      base.current = { ...base.current, [field]: live[field] };
      form.resetField(field, { defaultValue: next[field] });
    }
  }, [live, form]);

  async function save(changes: Partial<EditableValues>, version: number) {
    setServerError(null);
    try {
      const saved = await update.mutateAsync({ id: product.id, body: { ...changes, version } });
      notify.success(`Updated ${productNameOf(saved)}`);
      onClose();
    } catch (err) {
      const stale = versionConflict(err);
      if (stale) {
        const fields = (stale.fields ?? Object.keys(changes)).filter(isEditable);
        setConflict({ current: stale.product, mine: changes, fields });
        return;
      }
      setServerError(messageOr(err, UPDATE_FAILED));
    }
  }

  const onSubmit = form.handleSubmit(async (values) => {
    const changes = changedFields(values, base.current);
    if (Object.keys(changes).length === 0) onClose();
    else await save(changes, opened.version);
  });

  // Escape belongs to the viewer while it is open. Radix moves Escape to the top dialog only once
  // that dialog's layer is registered, a few frames after it shows: an Escape pressed meanwhile
  // reaches this dialog, and it closes the viewer rather than both.
  const closeTop = viewing === null ? onClose : () => setViewing(null);

  return (
    <Dialog onClose={closeTop} busy={saving} title="Edit Product" size={conflict ? "lg" : "md"}>
      {conflict ? (
        <EditConflict
          conflict={conflict}
          saving={saving}
          error={serverError}
          onApply={() => void save(conflict.mine, conflict.current.version)}
          onDiscard={onClose}
        />
      ) : (
        <form id="edit-product-form" onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4">
          <ProductFormFields
            register={form.register}
            errors={form.formState.errors}
            disabled={saving}
            formError={serverError}
            idPrefix="edit-product"
          />
          {/* Photos are saved as they change, apart from the form's Save. */}
          <PhotoEditor product={live} onView={setViewing} />
          {/* So are the market ids and the frozen price (the section loads on its own). */}
          <Suspense fallback={null}>
            <MarketSection productId={product.id} />
          </Suspense>
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose} disabled={saving}>
              Cancel
            </Button>
            <Button type="submit" disabled={saving}>
              {saving ? "Saving..." : "Save Changes"}
            </Button>
          </div>
        </form>
      )}
      {viewing !== null ? (
        <Suspense fallback={null}>
          <ProductPhotosDialog productId={product.id} canManage={false} start={viewing} onClose={() => setViewing(null)} />
        </Suspense>
      ) : null}
    </Dialog>
  );
}
