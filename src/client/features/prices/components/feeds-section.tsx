import { Plus, RefreshCw } from "lucide-react";
import { useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText } from "../../../lib/http";
import { useFeeds } from "../api/list-feeds";
import { AddFeedDialog } from "./add-feed-dialog";
import { FeedCard } from "./feed-card";
import { Panel } from "./panel";

/** The shop's price feeds: each with its last run and its file uploaded by hand; "Add feed". */
export function FeedsSection() {
  const id = useId();
  const feeds = useFeeds();
  const [adding, setAdding] = useState(false);
  return (
    <Panel
      titleId={`${id}-title`}
      title="Feeds"
      description="Where market prices come from: fetched every day, or a file you upload."
      testId="prices-feeds"
      actions={
        <Button size="sm" onClick={() => setAdding(true)}>
          <Plus aria-hidden="true" className="h-4 w-4" />
          Add feed
        </Button>
      }
    >
      {feeds.isPending ? (
        <div className="flex items-center gap-2 p-2">
          <Spinner label="Loading feeds" />
          Loading feeds...
        </div>
      ) : feeds.isError ? (
        <div className="flex flex-col items-start gap-2 p-2">
          <p role="alert" className="font-medium text-red-800 dark:text-red-200">
            {loadErrorText(feeds.error)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void feeds.refetch()} disabled={feeds.isFetching}>
            <RefreshCw aria-hidden="true" className="h-4 w-4" />
            Try Again
          </Button>
        </div>
      ) : feeds.data.length === 0 ? (
        <p className="rounded-lg border border-gray-200 p-4 text-center text-sm dark:border-gray-700">
          No feeds yet. Add one, then upload its file or let the server fetch it every day.
        </p>
      ) : (
        <ul aria-label="Feeds" className="flex flex-col gap-3">
          {feeds.data.map((feed) => (
            <li key={feed.id}>
              <FeedCard feed={feed} />
            </li>
          ))}
        </ul>
      )}
      {adding ? <AddFeedDialog onClose={() => setAdding(false)} /> : null}
    </Panel>
  );
}
