import type { ProductAuditEntry, QuantityAuditEntry } from "../../../../contract/audit";
import type { Photo } from "../../../../contract/photos";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";
import { cn } from "../../../lib/cn";
import { PhotoThumb, ProductCover } from "../../products";
import { AUDIT_FIELD_LABELS, auditValue, formatTimestamp } from "../audit-filters";

const ACTION_VARIANTS: Record<ProductAuditEntry["action"], BadgeVariant> = {
  CREATE: "success",
  UPDATE: "info",
  DELETE: "danger",
  DISABLE: "danger",
  ENABLE: "success",
  QUANTITY_ADD: "success",
  QUANTITY_SUBTRACT: "warning",
};

export function ProductChange({ entry }: { entry: ProductAuditEntry }) {
  const fields = entry.changed_fields.length > 0 ? entry.changed_fields : Object.keys(entry.new_values ?? {});
  return (
    <li className="flex flex-col gap-1.5 rounded-lg border border-gray-200 p-3 dark:border-gray-700" data-testid="audit-change">
      <div className="flex flex-wrap items-center gap-2">
        <ProductCover productId={entry.product_id} size={AUDIT_PHOTO_PX} />
        <Badge variant={ACTION_VARIANTS[entry.action]}>{entry.action}</Badge>
        <span className="font-semibold">{entry.product_name}</span>
        <span className="font-mono text-xs text-gray-700 dark:text-gray-300">{entry.barcode}</span>
      </div>
      <p className="text-xs text-gray-700 dark:text-gray-300">
        {formatTimestamp(entry.timestamp)} · {entry.user_name}
        {entry.ip_address ? ` · ${entry.ip_address}` : ""}
      </p>
      {fields.length > 0 ? (
        <ul className="text-sm">
          {fields.map((field) =>
            field === "photos" ? (
              <PhotosChange key={field} before={entry.old_values?.photos} after={entry.new_values?.photos} />
            ) : (
              <li key={field}>
                <span className="font-medium">{AUDIT_FIELD_LABELS[field] ?? field}</span>:{" "}
                {entry.old_values && field in entry.old_values ? (
                  <>
                    <span className="text-red-800 line-through dark:text-red-300">{auditValue(field, entry.old_values[field])}</span> →{" "}
                  </>
                ) : null}
                <span className="text-green-800 dark:text-green-300">{auditValue(field, entry.new_values?.[field])}</span>
              </li>
            ),
          )}
        </ul>
      ) : null}
    </li>
  );
}

/** A product's cover beside each entry (the product as it is now, from the product store). */
const AUDIT_PHOTO_PX = 32;

const photoList = (value: unknown): Photo[] => (Array.isArray(value) ? (value as Photo[]) : []);

/**
 * A change of photos: the photos before and after, as thumbnails. A photo taken off since whose
 * file was deleted (no product shows it any more) shows PhotoThumb's placeholder icon.
 */
function PhotosChange({ before, after }: { before: unknown; after: unknown }) {
  const old = photoList(before);
  const now = photoList(after);
  const strip = (photos: Photo[], label: string) => (
    <span className="inline-flex flex-wrap items-center gap-1" role="img" aria-label={label}>
      {photos.length === 0 ? <span aria-hidden="true">none</span> : null}
      {photos.map((p) => (
        <PhotoThumb key={p.id} photo={p} size={AUDIT_PHOTO_PX} alt="" />
      ))}
    </span>
  );
  return (
    <li className="flex flex-wrap items-center gap-2" data-testid="audit-photos">
      <span className="font-medium">Photos</span>: {strip(old, `${old.length} photos before`)} → {strip(now, `${now.length} photos after`)}
    </li>
  );
}

export function QuantityChange({ entry }: { entry: QuantityAuditEntry }) {
  const up = entry.quantity_change > 0;
  return (
    <li className="flex flex-col gap-1 rounded-lg border border-gray-200 p-3 dark:border-gray-700" data-testid="audit-quantity">
      <div className="flex flex-wrap items-center gap-2">
        <span
          className={cn("text-lg font-bold tabular-nums", up ? "text-green-800 dark:text-green-300" : "text-red-800 dark:text-red-300")}
        >
          {up ? `+${entry.quantity_change}` : entry.quantity_change}
        </span>
        <ProductCover productId={entry.product_id} size={AUDIT_PHOTO_PX} />
        <span className="font-semibold">{entry.product_name}</span>
        <span className="font-mono text-xs text-gray-700 dark:text-gray-300">{entry.barcode}</span>
        <Badge>{entry.transaction_type}</Badge>
      </div>
      <p className="text-sm">
        Quantity: {entry.quantity_before} → {entry.quantity_after}
        {entry.notes ? ` · ${entry.notes}` : ""}
      </p>
      <p className="text-xs text-gray-700 dark:text-gray-300">
        {formatTimestamp(entry.timestamp)} · {entry.user_name}
      </p>
    </li>
  );
}
