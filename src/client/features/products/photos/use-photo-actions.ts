import { useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { PHOTO_MESSAGES } from "../../../../contract/photos";
import type { Product } from "../../../../contract/products";
import { messageOr } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { addPhoto } from "../api/add-photo";
import { removePhoto } from "../api/remove-photo";
import { reorderPhotos } from "../api/reorder-photos";
import { useProductStore } from "../store/product-store-provider";
import { moveInOrder, roomFor } from "./photo-order";

/**
 * Adding (one file after the other, in the order picked), removing and moving a product's photos.
 * Each answer's product goes into the product store (every screen shows it at once; the others
 * hear the live event) and the audit trails on screen refetch.
 */
export function usePhotoActions(productId: number) {
  const store = useProductStore();
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const settle = (product: Product) => {
    store.put(product);
    void queryClient.invalidateQueries({ queryKey: queryKeys.audit });
  };

  async function add(files: readonly File[]): Promise<void> {
    setError(null);
    const room = roomFor(store.get(productId)?.photos?.length ?? 0);
    const taken = files.slice(0, room);
    const errors: string[] = files.length > room ? [PHOTO_MESSAGES.tooMany] : [];
    for (const [i, file] of taken.entries()) {
      setStatus(taken.length > 1 ? `Adding photo ${i + 1} of ${taken.length}…` : "Adding photo…");
      try {
        settle((await addPhoto(productId, file, file.name)).product);
      } catch (err) {
        errors.push(`${file.name}: ${messageOr(err, "Failed to add the photo")}`);
      }
    }
    setStatus(null);
    if (errors.length > 0) setError(errors.join(" "));
  }

  async function run(what: string, work: () => Promise<{ product: Product }>): Promise<void> {
    setError(null);
    setStatus(what);
    try {
      settle((await work()).product);
    } catch (err) {
      setError(messageOr(err, "Failed to change the photos"));
    } finally {
      setStatus(null);
    }
  }

  const remove = (photoId: number) => run("Removing photo…", () => removePhoto(productId, photoId));

  const move = (photoId: number, delta: number) => {
    const ids = (store.get(productId)?.photos ?? []).map((p) => p.id);
    const order = moveInOrder(ids, photoId, delta);
    if (order.every((id, i) => id === ids[i])) return Promise.resolve();
    return run("Moving photo…", () => reorderPhotos(productId, { order }));
  };

  return { add, remove, move, status, error, busy: status !== null };
}
