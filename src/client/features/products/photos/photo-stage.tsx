import { ChevronLeft, ChevronRight } from "lucide-react";
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
 * loads), with Previous and Next; the arrow keys page through while focus is inside.
 */
export function PhotoStage({ photos, index, onIndex, name }: PhotoStageProps) {
  const photo = photos[Math.min(index, photos.length - 1)];
  if (!photo) return <p className="text-sm text-gray-700 dark:text-gray-300">No photos yet.</p>;
  const at = photos.indexOf(photo);
  const go = (delta: number) => onIndex((at + delta + photos.length) % photos.length);
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: arrow keys are a shortcut for the Previous and Next buttons.
    <div
      className="flex flex-col items-center gap-2"
      onKeyDown={(event) => {
        if (event.key === "ArrowLeft") go(-1);
        else if (event.key === "ArrowRight") go(1);
        else return;
        event.preventDefault();
      }}
    >
      <img
        key={photo.id}
        src={photo.url}
        width={photo.width}
        height={photo.height}
        alt={`${name}, ${at + 1} of ${photos.length}${at === 0 ? " (cover)" : ""}`}
        className="h-auto max-h-[60dvh] w-auto max-w-full rounded-md bg-gray-100 object-contain dark:bg-gray-800"
        style={{ aspectRatio: `${photo.width} / ${photo.height}` }}
        data-testid="photo-large"
      />
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
