import { Button } from "../../../components/ui/button";

const count = (n: number) => n.toLocaleString("en-US");

/** The next page of a list the Prices view shows a page at a time: how many are shown, and "Show more". */
export function ShowMore({
  shown,
  total,
  list,
}: {
  shown: number;
  total: number;
  list: { hasNextPage: boolean; isFetchingNextPage: boolean; fetchNextPage: () => unknown };
}) {
  if (!list.hasNextPage) return null;
  return (
    <div className="flex flex-wrap items-center justify-center gap-3">
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Showing {count(shown)} of {count(total)}
      </p>
      <Button variant="outline" size="sm" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
        {list.isFetchingNextPage ? "Loading..." : "Show more"}
      </Button>
    </div>
  );
}
