import type { StockTakeStatus } from "../../../../contract/stock-takes";
import { Badge, type BadgeVariant } from "../../../components/ui/badge";

/** Each status's words ("approving": an approval's batches are running, or were cut off). */
export const STATUS_LABELS: Record<string, string> = {
  counting: "Counting",
  review: "In review",
  approving: "Being approved",
  approved: "Approved",
  cancelled: "Cancelled",
};
const VARIANTS: Record<string, BadgeVariant> = {
  counting: "info",
  review: "warning",
  approving: "warning",
  approved: "success",
  cancelled: "neutral",
};

export function StatusBadge({ status }: { status: StockTakeStatus }) {
  return <Badge variant={VARIANTS[status] ?? "neutral"}>{STATUS_LABELS[status] ?? status}</Badge>;
}
