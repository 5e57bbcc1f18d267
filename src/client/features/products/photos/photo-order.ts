import { PHOTOS_MAX } from "../../../../contract/photos";

/** The ids with `id` moved by `delta` places (clamped to the ends); the same ids when it cannot move. */
export function moveInOrder<T>(items: readonly T[], item: T, delta: number): T[] {
  const from = items.indexOf(item);
  if (from < 0) return [...items];
  const to = Math.max(0, Math.min(items.length - 1, from + delta));
  const next = [...items];
  next.splice(from, 1);
  next.splice(to, 0, item);
  return next;
}

/** The image files among picked, dropped or pasted files (anything else is left out). */
export function imageFiles(files: Iterable<File> | ArrayLike<File> | null | undefined): File[] {
  if (!files) return [];
  return Array.from(files as ArrayLike<File>).filter((f) => f.type.startsWith("image/") || /\.(heic|heif|avif)$/i.test(f.name));
}

/** How many more photos a product with `count` of them takes. */
export function roomFor(count: number): number {
  return Math.max(0, PHOTOS_MAX - count);
}
