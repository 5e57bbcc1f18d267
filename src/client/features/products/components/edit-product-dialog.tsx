import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { Product } from "../../../../contract/products";
import { MESSAGES } from "../../../../contract/rules";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { messageOr } from "../../../lib/http";
import { useServerError } from "../../../lib/use-server-error";
import { notify } from "../../notifications/notify";
import { conflictProduct, useUpdateProduct } from "../api/update-product";
import {
  FIELD_LABELS,
  formValuesOf,
  type ProductFormOutput,
  type ProductFormValues,
  productFormSchema,
  productNameOf,
  UPDATE_FAILED,
} from "../product-form";
import { ProductFormFields } from "./product-form-fields";

const schema = productFormSchema("edit");
const FIELDS = Object.keys(FIELD_LABELS) as Array<keyof ProductFormValues>;

export interface EditProductDialogProps {
  product: Product;
  onClose: () => void;
}

interface Conflict {
  current: Product;
  mine: ProductFormOutput;
}

function show(value: unknown): string {
  return value === null || value === undefined || value === "" ? "—" : String(value);
}

/** 'Edit Product': sends the version it was based on; a 409 shows both sides to choose from. */
export function EditProductDialog({ product, onClose }: EditProductDialogProps) {
  const update = useUpdateProduct();
  const [version, setVersion] = useState(product.version);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const form = useForm<ProductFormValues, unknown, ProductFormOutput>({
    resolver: zodResolver(schema),
    defaultValues: formValuesOf(product),
    reValidateMode: "onSubmit",
  });
  const { serverError, setServerError, clearErrors } = useServerError(form);
  const saving = update.isPending || form.formState.isSubmitting;

  async function save(body: ProductFormOutput, basedOn: number) {
    setServerError(null);
    try {
      const saved = await update.mutateAsync({ id: product.id, body: { ...body, version: basedOn } });
      notify.success(`Updated ${productNameOf(saved)}`);
      onClose();
    } catch (err) {
      const current = conflictProduct(err);
      if (current) {
        setVersion(current.version);
        setConflict({ current, mine: body });
        return;
      }
      setServerError(messageOr(err, UPDATE_FAILED));
    }
  }

  const onSubmit = form.handleSubmit((body) => save(body, version));

  return (
    <Dialog onClose={onClose} busy={saving} title="Edit Product" size={conflict ? "lg" : "md"}>
      {conflict ? (
        <div className="flex flex-col gap-4" data-testid="edit-conflict">
          <p
            role="alert"
            className="rounded-lg border border-amber-400 bg-amber-50 p-3 text-sm font-semibold text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-100"
          >
            {MESSAGES.versionConflict}. Compare the current values with yours, then apply yours again or discard them.
          </p>
          <table className="w-full text-left text-sm">
            <thead>
              <tr className="border-b border-gray-300 dark:border-gray-600">
                <th scope="col" className="py-2 pr-3">
                  Field
                </th>
                <th scope="col" className="py-2 pr-3">
                  Current value
                </th>
                <th scope="col" className="py-2">
                  Your value
                </th>
              </tr>
            </thead>
            <tbody>
              {FIELDS.map((field) => {
                const theirs = conflict.current[field];
                const mine = conflict.mine[field];
                const differs = show(theirs) !== show(mine);
                return (
                  <tr key={field} className="border-b border-gray-200 dark:border-gray-700">
                    <th scope="row" className="py-2 pr-3 font-medium">
                      {FIELD_LABELS[field]}
                    </th>
                    <td className="py-2 pr-3">{show(theirs)}</td>
                    <td className={differs ? "py-2 font-semibold text-blue-800 dark:text-blue-300" : "py-2"}>{show(mine)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          {serverError ? (
            <p role="alert" className="text-sm font-medium text-red-700 dark:text-red-300">
              {serverError}
            </p>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={onClose} disabled={saving}>
              Discard My Changes
            </Button>
            <Button
              disabled={saving}
              onClick={() => {
                const mine = conflict.mine;
                setConflict(null);
                void save(mine, version);
              }}
            >
              {saving ? "Saving..." : "Apply My Changes"}
            </Button>
          </div>
        </div>
      ) : (
        <form id="edit-product-form" onSubmit={onSubmit} onChange={clearErrors} noValidate className="flex flex-col gap-4">
          <ProductFormFields
            register={form.register}
            errors={form.formState.errors}
            disabled={saving}
            formError={serverError}
            idPrefix="edit-product"
          />
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
    </Dialog>
  );
}
