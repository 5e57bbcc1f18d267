import { useStockTakesLive } from "../live";
import { CountingScreen } from "./counting-screen";
import { ReviewScreen } from "./review-screen";
import { StockTakesList } from "./stock-takes-list";

export interface StockTakesViewProps {
  /** The session at the address (/stock-takes/{id}); the list when absent. */
  stockTakeId?: number;
  /** /stock-takes/{id}/review. */
  review?: boolean;
  onCount: (id: number) => void;
  onReview: (id: number) => void;
  onList: () => void;
}

/** The Stock take view (issue 41): the sessions and a new count, one session's counting screen, or its review. */
export function StockTakesView({ stockTakeId, review, onCount, onReview, onList }: StockTakesViewProps) {
  useStockTakesLive();
  if (stockTakeId === undefined) return <StockTakesList onCount={onCount} onReview={onReview} />;
  if (review) return <ReviewScreen key={stockTakeId} id={stockTakeId} onCount={onCount} onList={onList} />;
  return <CountingScreen key={stockTakeId} id={stockTakeId} onReview={onReview} onList={onList} />;
}
