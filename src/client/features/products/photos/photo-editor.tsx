import { ChevronLeft, ChevronRight, Trash2 } from "lucide-react";
import { PHOTOS_MAX } from "../../../../contract/photos";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { PhotoPicker } from "./photo-picker";
import { PhotoThumb } from "./photo-thumb";
import { usePhotoActions } from "./use-photo-actions";

export interface PhotoEditorProps {
  product: Product;
  /** Opens the viewer at this photo. */
  onView: (index: number) => void;
}

/** A product's photos, the cover first: add (pick, camera, drop, paste), move earlier or later, remove. Each change is saved at once. */
export function PhotoEditor({ product, onView }: PhotoEditorProps) {
  const actions = usePhotoActions(product.id);
  const photos = product.photos ?? [];
  const name = product.product_name;
  return (
    <section aria-labelledby={`photos-${product.id}`} className="flex flex-col gap-2" data-testid="photo-editor">
      <h3 id={`photos-${product.id}`} className="text-sm font-semibold">
        Photos ({photos.length} of {PHOTOS_MAX})
      </h3>
      {photos.length > 0 ? (
        <ol className="flex flex-wrap gap-3" data-testid="photo-list">
          {photos.map((photo, i) => (
            <li key={photo.id} className="flex flex-col items-center gap-1" data-testid="photo-item" data-photo-id={photo.id}>
              <button
                type="button"
                onClick={() => onView(i)}
                aria-label={`View photo ${i + 1} of ${name}`}
                className="rounded-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-blue-600"
              >
                <PhotoThumb photo={photo} size={80} alt="" />
              </button>
              <span className="h-4 text-xs font-semibold">{i === 0 ? "Cover" : ""}</span>
              <div className="flex gap-1">
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0"
                  aria-label={`Move photo ${i + 1} earlier`}
                  disabled={i === 0 || actions.busy}
                  onClick={() => void actions.move(photo.id, -1)}
                >
                  <ChevronLeft aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0"
                  aria-label={`Move photo ${i + 1} later`}
                  disabled={i === photos.length - 1 || actions.busy}
                  onClick={() => void actions.move(photo.id, 1)}
                >
                  <ChevronRight aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0 text-red-800 dark:text-red-300"
                  aria-label={`Remove photo ${i + 1}`}
                  disabled={actions.busy}
                  onClick={() => void actions.remove(photo.id)}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {photos.length < PHOTOS_MAX ? (
        <PhotoPicker onFiles={(files) => void actions.add(files)} disabled={actions.busy} name={name} />
      ) : (
        <p className="text-sm text-gray-700 dark:text-gray-300">{PHOTOS_MAX} photos: remove one to add another.</p>
      )}
      <p role="status" className="min-h-5 text-sm text-gray-700 dark:text-gray-300">
        {actions.status ?? ""}
      </p>
      {actions.error ? (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-200">
          {actions.error}
        </p>
      ) : null}
    </section>
  );
}
