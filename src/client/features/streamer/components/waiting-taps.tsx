import { CloudOff, CloudUpload } from "lucide-react";
import { useWaitingTaps } from "../../products";

/**
 * The top bar's count of taps waiting for the server (hidden when there are none): "3 pending",
 * with a crossed-out cloud while the server is out of reach.
 */
export function WaitingTaps() {
  const { count, offline } = useWaitingTaps();
  if (count === 0) return null;
  const Icon = offline ? CloudOff : CloudUpload;
  const title = offline
    ? `${count} ${count === 1 ? "tap waits" : "taps wait"} for the server: ${count === 1 ? "it is" : "they are"} sent in order once it is back`
    : `Sending ${count} ${count === 1 ? "tap" : "taps"}`;
  return (
    <output
      className="inline-flex h-8 items-center gap-1 rounded-full bg-amber-100 px-2.5 text-xs font-semibold text-amber-900 dark:bg-amber-900/60 dark:text-amber-100"
      title={title}
      aria-label={title}
      data-testid="waiting-taps"
    >
      <Icon aria-hidden="true" className="h-4 w-4" />
      <span data-testid="waiting-taps-count">{count}</span> pending
    </output>
  );
}
