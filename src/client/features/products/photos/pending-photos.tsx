import { ChevronLeft, ChevronRight, Trash2 } from "lucide-react";
import { useEffect, useMemo } from "react";
import { PHOTOS_MAX } from "../../../../contract/photos";
import { Button } from "../../../components/ui/button";
import { moveInOrder } from "./photo-order";
import { PhotoPicker } from "./photo-picker";

export interface PendingPhotosProps {
  files: readonly File[];
  onChange: (files: File[]) => void;
  disabled?: boolean;
  name: string;
}

/** Photos picked for a product not saved yet: shown from the device, in order (the first is the cover), sent once it is added. */
export function PendingPhotos({ files, onChange, disabled = false, name }: PendingPhotosProps) {
  const urls = useMemo(() => files.map((f) => URL.createObjectURL(f)), [files]);
  useEffect(
    () => () => {
      for (const url of urls) URL.revokeObjectURL(url);
    },
    [urls],
  );
  return (
    <section aria-label="Photos" className="flex flex-col gap-2" data-testid="pending-photos">
      <h3 className="text-sm font-semibold">
        Photos ({files.length} of {PHOTOS_MAX})
      </h3>
      {files.length > 0 ? (
        <ol className="flex flex-wrap gap-3">
          {files.map((file, i) => (
            <li key={urls[i]} className="flex flex-col items-center gap-1" data-testid="pending-photo">
              <img
                src={urls[i]}
                alt={`${file.name}${i === 0 ? " (cover)" : ""}`}
                width={80}
                height={80}
                className="size-20 rounded-md object-cover"
              />
              <div className="flex gap-1">
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0"
                  aria-label={`Move ${file.name} earlier`}
                  disabled={disabled || i === 0}
                  onClick={() => onChange(moveInOrder(files, file, -1))}
                >
                  <ChevronLeft aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0"
                  aria-label={`Move ${file.name} later`}
                  disabled={disabled || i === files.length - 1}
                  onClick={() => onChange(moveInOrder(files, file, 1))}
                >
                  <ChevronRight aria-hidden="true" className="h-4 w-4" />
                </Button>
                <Button
                  variant="outline"
                  size="sm"
                  className="w-8 px-0 text-red-800 dark:text-red-300"
                  aria-label={`Remove ${file.name}`}
                  disabled={disabled}
                  onClick={() => onChange(files.filter((f) => f !== file))}
                >
                  <Trash2 aria-hidden="true" className="h-4 w-4" />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {files.length < PHOTOS_MAX ? (
        <PhotoPicker
          onFiles={(picked) => onChange([...files, ...picked].slice(0, PHOTOS_MAX))}
          disabled={disabled}
          name={name || "the new product"}
        />
      ) : null}
    </section>
  );
}
