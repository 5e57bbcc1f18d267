import { ImageIcon, ImageOff } from "lucide-react";
import { useState } from "react";
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

const ICON_CLASS = "size-1/2 max-h-8 max-w-8 text-gray-400 dark:text-gray-500";
// The same elements on every render: a thumb given another product re-renders, its icon not.
const NO_PHOTO_ICON = <ImageIcon aria-hidden="true" className={ICON_CLASS} />;
const GONE_ICON = <ImageOff aria-hidden="true" className={ICON_CLASS} data-testid="photo-gone" />;

/**
 * A photo in a fixed square box (the picture cropped to fill it), loaded lazily when it comes
 * near the screen; an empty box with an icon when there is no photo. A photo whose file is no
 * longer stored (an audit entry's photo that was taken off and deleted: its URL answers 404)
 * shows a crossed-out picture icon instead of the browser's broken image.
 */
export function PhotoThumb({ photo, size, alt, full = false, className }: PhotoThumbProps) {
  const src = photo ? (full ? photo.url : photo.thumbnail_url) : undefined;
  const [failed, setFailed] = useState<string>();
  const gone = src !== undefined && failed === src;
  return (
    <span
      className={cn("inline-flex shrink-0 items-center justify-center overflow-hidden rounded-md bg-gray-100 dark:bg-gray-800", className)}
      style={{ width: size, height: size }}
      data-testid="photo-thumb"
      {...(gone && alt ? { role: "img", "aria-label": alt } : {})}
    >
      {gone ? (
        GONE_ICON
      ) : src ? (
        <img
          src={src}
          onError={() => setFailed(src)}
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
