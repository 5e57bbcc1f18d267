import { queryOptions, replaceEqualDeep, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  DropUnknownAnswer,
  Location,
  LocationsFromProductsAnswer,
  ReviewLine,
  ReviewLineAnswer,
  ScansAnswer,
  ScansBody,
  StartStockTakeBody,
  StockTake,
  StockTakeReview,
} from "../../../../contract/stock-takes";
import { apiFetch } from "../../../lib/http";
import { queryKeys } from "../../../lib/query-client";
import { type Counted, mergeCounted, newerStockTake } from "../counted";

// The stock takes' calls (src/contract/stock-takes.ts). Live stock_take_update events mark
// everything under queryKeys.stockTakes stale (features/presence); live.ts patches the running
// totals with each scan and refetches what is on screen.

export const locationsQuery = queryOptions({
  queryKey: [...queryKeys.stockTakes, "locations"],
  queryFn: ({ signal }) => apiFetch<Location[]>("/api/locations", { signal }),
});

export const stockTakesQuery = queryOptions({
  queryKey: [...queryKeys.stockTakes, "list"],
  queryFn: ({ signal }) => apiFetch<StockTake[]>("/api/stock-takes?limit=200", { signal }),
});

export const stockTakeQuery = (id: number) =>
  queryOptions({
    queryKey: [...queryKeys.stockTakes, "one", id],
    queryFn: async ({ signal }) => (await apiFetch<{ stock_take: StockTake }>(`/api/stock-takes/${id}`, { signal })).stock_take,
    // A fetch read before a scan answered here or heard live does not take its count back.
    structuralSharing: (old, next) => replaceEqualDeep(old, newerStockTake(old as StockTake | undefined, next as StockTake)),
  });

/** The review: also the counting screen's running totals (counted per product, live). */
export const reviewQuery = (id: number) =>
  queryOptions({
    queryKey: [...queryKeys.stockTakes, "review", id],
    queryFn: ({ signal }) => apiFetch<StockTakeReview>(`/api/stock-takes/${id}/review`, { signal }),
  });

/** What a session has counted of each product and unknown barcode, on every device: the counting screen's running totals, patched live (live.ts). */
export const countedQuery = (id: number) =>
  queryOptions({
    queryKey: [...queryKeys.stockTakes, "counted", id],
    queryFn: async ({ signal }): Promise<Counted> => {
      const review = await apiFetch<StockTakeReview>(`/api/stock-takes/${id}/review`, { signal });
      return {
        // Read before the lines: they hold at least these scans.
        scans: review.stock_take.scans,
        lines: review.lines
          .filter((l) => l.counted > 0)
          .map((l) => ({ product_id: l.product_id, barcode: l.barcode, name: l.name, counted: l.counted })),
      };
    },
    // A fetch read before a scan answered here or heard live keeps that scan's count (counted.ts).
    structuralSharing: (old, next) => replaceEqualDeep(old, mergeCounted(old as Counted | undefined, next as Counted)),
  });

export const useLocations = () => useQuery(locationsQuery);
export const useCounted = (id: number) => useQuery(countedQuery(id));
export const useStockTakes = () => useQuery(stockTakesQuery);
export const useStockTake = (id: number) => useQuery(stockTakeQuery(id));
export const useReview = (id: number) => useQuery(reviewQuery(id));

function useInvalidating<A, R>(fn: (arg: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: fn, onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.stockTakes }) });
}

/** POST /api/locations/from-products: a location of every distinct location text the products hold. */
export const useLocationsFromProducts = () =>
  useInvalidating(() => apiFetch<LocationsFromProductsAnswer>("/api/locations/from-products", { method: "POST" }));

export const useCreateLocation = () =>
  useInvalidating((name: string) => apiFetch<Location>("/api/locations", { method: "POST", body: { name } }));

export const useStartStockTake = () =>
  useInvalidating(
    async (body: StartStockTakeBody) =>
      (await apiFetch<{ stock_take: StockTake }>("/api/stock-takes", { method: "POST", body })).stock_take,
  );

const sessionAction = (action: "finish" | "cancel") => async (id: number) =>
  (await apiFetch<{ stock_take: StockTake }>(`/api/stock-takes/${id}/${action}`, { method: "POST" })).stock_take;
export const useFinishCounting = () => useInvalidating(sessionAction("finish"));
export const useCancelStockTake = () => useInvalidating(sessionAction("cancel"));

/** POST /api/stock-takes/{id}/approve: the products named, or all. */
export const useApproveStockTake = () =>
  useInvalidating(({ id, productIds }: { id: number; productIds?: number[] }) =>
    apiFetch<StockTakeReview>(`/api/stock-takes/${id}/approve`, { method: "POST", body: productIds ? { product_ids: productIds } : {} }),
  );

/** POST /api/stock-takes/{id}/scans: one or many, in order; a client_scan_id sent again answers its first answer. */
export const sendScans = (id: number, body: ScansBody) => apiFetch<ScansAnswer>(`/api/stock-takes/${id}/scans`, { method: "POST", body });

// The review's actions: each answers the line (or the drop's count) and refetches the stock takes' queries.
const reviewAction = async <T>(id: number, path: string, body: object) =>
  apiFetch<T>(`/api/stock-takes/${id}/${path}`, { method: "POST", body });

/** POST /api/stock-takes/{id}/misplaced/move: the product's location becomes where it was found (an edit of the product). */
export const useMoveMisplaced = () =>
  useInvalidating(
    async ({ id, productId, location }: { id: number; productId: number; location: string }): Promise<ReviewLine> =>
      (await reviewAction<ReviewLineAnswer>(id, "misplaced/move", { product_id: productId, location })).line,
  );

/** POST /api/stock-takes/{id}/misplaced/keep: counted where it was found; the product keeps its location. */
export const useKeepMisplaced = () =>
  useInvalidating(
    async ({ id, productId }: { id: number; productId: number }): Promise<ReviewLine> =>
      (await reviewAction<ReviewLineAnswer>(id, "misplaced/keep", { product_id: productId })).line,
  );

/** POST /api/stock-takes/{id}/unknown/link: the barcode's unknown scans become the product's (it has the barcode). */
export const useLinkUnknown = () =>
  useInvalidating(
    async ({ id, barcode, productId }: { id: number; barcode: string; productId: number }): Promise<ReviewLine> =>
      (await reviewAction<ReviewLineAnswer>(id, "unknown/link", { barcode, product_id: productId })).line,
  );

/** POST /api/stock-takes/{id}/unknown/drop: the barcode's unknown scans are left out of the review and report. */
export const useDropUnknown = () =>
  useInvalidating(({ id, barcode }: { id: number; barcode: string }) => reviewAction<DropUnknownAnswer>(id, "unknown/drop", { barcode }));
