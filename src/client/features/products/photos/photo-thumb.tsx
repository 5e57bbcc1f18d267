import { ImageIcon } from "lucide-react";
import type { Photo } from "../../../../contract/photos";
import { cn } from "../../../lib/cn";

export interface PhotoThumbProps {
  photo: Photo | undefined;
  /** The box's side in CSS pixels: fixed, so nothing moves when the picture arrives. */
  size: number;
  /** The picture's text alternative; empty when a caption next to it already names the product. */
  alt: string;
  /** The full picture instead of the 320-pixel thumbnail (large boxes). */
  full?: boolean;
  className?: string;
}

// The same element on every render: a thumb given another product re-renders, its icon not.
const NO_PHOTO_ICON = <ImageIcon aria-hidden="true" className="size-1/2 max-h-8 max-w-8 text-gray-400 dark:text-gray-500" />;

/**
 * A photo in a fixed square box (the picture cropped to fill it), loaded lazily when it comes
 * near the screen; an empty box with an icon when there is no photo.
 */
export function PhotoThumb({ photo, size, alt, full = false, className }: PhotoThumbProps) {
  return (
    <span
      className={cn("inline-flex shrink-0 items-center justify-center overflow-hidden rounded-md bg-gray-100 dark:bg-gray-800", className)}
      style={{ width: size, height: size }}
      data-testid="photo-thumb"
    >
      {photo ? (
        <img
          src={full ? photo.url : photo.thumbnail_url}
          alt={alt}
          width={size}
          height={size}
          loading="lazy"
          decoding="async"
          draggable={false}
          className="size-full object-cover"
        />
      ) : (
        NO_PHOTO_ICON
      )}
    </span>
  );
}
