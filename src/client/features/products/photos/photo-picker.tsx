import { Camera, ImagePlus } from "lucide-react";
import { type ChangeEvent, useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { cn } from "../../../lib/cn";
import { imageFiles } from "./photo-order";

export interface PhotoPickerProps {
  /** The picked, dropped or pasted image files, in order. */
  onFiles: (files: File[]) => void;
  disabled?: boolean;
  /** What the product is called, for the buttons' accessible names. */
  name: string;
}

/**
 * Where photos come from: the file chooser (several at once), the phone's camera (one photo per
 * tap, again and again), a drop of files on the box, or a paste (a screenshot, a copied picture)
 * anywhere while it is on screen.
 */
export function PhotoPicker({ onFiles, disabled = false, name }: PhotoPickerProps) {
  const chooser = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const latest = useRef(onFiles);
  latest.current = onFiles;

  useEffect(() => {
    if (disabled) return;
    const onPaste = (event: ClipboardEvent) => {
      const files = imageFiles(event.clipboardData?.files);
      if (files.length === 0) return;
      event.preventDefault();
      latest.current(files);
    };
    document.addEventListener("paste", onPaste);
    return () => document.removeEventListener("paste", onPaste);
  }, [disabled]);

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const files = imageFiles(event.target.files);
    // Cleared, so the same file (or the next camera shot) can be picked again.
    event.target.value = "";
    if (files.length > 0) onFiles(files);
  };

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: dropping files is an extra; the buttons inside do the same by keyboard.
    <div
      data-testid="photo-drop"
      onDragOver={(event) => {
        if (disabled) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        event.preventDefault();
        setOver(false);
        if (!disabled) onFiles(imageFiles(event.dataTransfer.files));
      }}
      className={cn(
        "flex flex-wrap items-center gap-2 rounded-lg border-2 border-dashed p-3 text-sm",
        over ? "border-blue-600 bg-blue-50 dark:bg-blue-950" : "border-gray-300 dark:border-gray-600",
      )}
    >
      <Button
        variant="outline"
        size="sm"
        disabled={disabled}
        onClick={() => chooser.current?.click()}
        aria-label={`Choose photos of ${name}`}
      >
        <ImagePlus aria-hidden="true" className="h-4 w-4" />
        Choose photos
      </Button>
      <Button
        variant="outline"
        size="sm"
        disabled={disabled}
        onClick={() => camera.current?.click()}
        aria-label={`Take a photo of ${name}`}
      >
        <Camera aria-hidden="true" className="h-4 w-4" />
        Take photo
      </Button>
      <span className="text-gray-700 dark:text-gray-300">or drop or paste pictures here</span>
      <input ref={chooser} type="file" accept="image/*" multiple hidden tabIndex={-1} aria-hidden="true" onChange={picked} />
      <input ref={camera} type="file" accept="image/*" capture="environment" hidden tabIndex={-1} aria-hidden="true" onChange={picked} />
    </div>
  );
}
