import { cn } from "../../lib/cn";

/** A spinning ring; announced to screen readers with `label`. */
export function Spinner({ label = "Loading", className }: { label?: string; className?: string }) {
  return (
    <span role="status" className={cn("inline-flex items-center", className)}>
      <span aria-hidden="true" className="inline-block h-5 w-5 animate-spin rounded-full border-2 border-current border-t-transparent" />
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A view's place while its code loads. */
export function ViewLoading() {
  return (
    <div className="flex justify-center p-8">
      <Spinner label="Loading view" />
    </div>
  );
}
