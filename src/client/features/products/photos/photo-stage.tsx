import { ChevronLeft, ChevronRight, ImageOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { Photo } from "../../../../contract/photos";
import { Button } from "../../../components/ui/button";

export interface PhotoStageProps {
  photos: readonly Photo[];
  index: number;
  onIndex: (index: number) => void;
  name: string;
}

/**
 * One photo large (its box sized from the photo's own width and height, so nothing moves when it
 * loads), with Previous and Next; the left and right arrow keys page through while it is on
 * screen (the viewer is a modal dialog), except in a text field. A photo whose file is no longer
 * stored (removed meanwhile: 404) shows a placeholder of the same size saying so.
 */
export function PhotoStage({ photos, index, onIndex, name }: PhotoStageProps) {
  const photo = photos[Math.min(index, photos.length - 1)];
  const at = photo ? photos.indexOf(photo) : 0;
  const [failed, setFailed] = useState<string>();
  const go = (delta: number) => onIndex((at + delta + photos.length) % photos.length);
  const latest = useRef(go);
  latest.current = go;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (event.defaultPrevented || target?.closest("input, textarea, select, [contenteditable]")) return;
      if (event.key === "ArrowLeft") latest.current(-1);
      else if (event.key === "ArrowRight") latest.current(1);
      else return;
      event.preventDefault();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, []);
  if (!photo) return <p className="text-sm text-gray-700 dark:text-gray-300">No photos yet.</p>;
  const label = `${name}, ${at + 1} of ${photos.length}${at === 0 ? " (cover)" : ""}`;
  return (
    <div className="flex flex-col items-center gap-2">
      {failed === photo.url ? (
        <div
          role="img"
          aria-label={`${label}: no longer stored`}
          className="flex max-h-[60dvh] max-w-full flex-col items-center justify-center gap-2 rounded-md bg-gray-100 text-sm text-gray-700 dark:bg-gray-800 dark:text-gray-300"
          style={{ width: photo.width, aspectRatio: `${photo.width} / ${photo.height}` }}
          data-testid="photo-large-gone"
        >
          <ImageOff aria-hidden="true" className="h-8 w-8 text-gray-400 dark:text-gray-500" />
          <span aria-hidden="true">This photo is no longer stored</span>
        </div>
      ) : (
        <img
          key={photo.id}
          src={photo.url}
          onError={() => setFailed(photo.url)}
          width={photo.width}
          height={photo.height}
          alt={label}
          className="h-auto max-h-[60dvh] w-auto max-w-full rounded-md bg-gray-100 object-contain dark:bg-gray-800"
          style={{ aspectRatio: `${photo.width} / ${photo.height}` }}
          data-testid="photo-large"
        />
      )}
      {photos.length > 1 ? (
        <div className="flex items-center gap-3">
          <Button variant="outline" size="sm" onClick={() => go(-1)} aria-label="Previous photo">
            <ChevronLeft aria-hidden="true" className="h-4 w-4" />
          </Button>
          <span className="text-sm tabular-nums" aria-live="polite">
            {at + 1} of {photos.length}
          </span>
          <Button variant="outline" size="sm" onClick={() => go(1)} aria-label="Next photo">
            <ChevronRight aria-hidden="true" className="h-4 w-4" />
          </Button>
        </div>
      ) : null}
    </div>
  );
}
