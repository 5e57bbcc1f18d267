import { CloudDownload, Upload } from "lucide-react";
import { type FormEvent, useId, useRef, useState } from "react";
import { FEED_FORMAT_LABELS, type FeedFormat } from "../../../../contract/market";
import type { FeedRun, PriceFeed } from "../../../../contract/prices";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { FieldError, Label } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { failureText, notify } from "../../notifications";
import { type FeedFiles, useRunFeed } from "../api/run-feed";
import { isTwoFiles } from "../feed-form";
import { pricesText } from "../proposal-text";

/** The first problems of a run shown on its feed (the run keeps a few more). */
export const PROBLEMS_SHOWN = 3;
export const RUN_FAILED = "Failed to read the feed";

const count = (n: number) => n.toLocaleString("en-US");

/** What a finished run says in its message: "Pokemon: 1,200 records read, 950 matched, 12 new prices to review". */
export function runSummary(feedName: string, run: FeedRun): string {
  if (run.status === "failed") return `${feedName}: the file was not read, nothing changed: ${run.error ?? "no reason given"}`;
  return `${feedName}: ${count(run.records)} records read, ${count(run.matched)} matched, ${pricesText(run.proposals)} to review`;
}

const ACCEPT: Record<FeedFormat, string> = {
  csv: ".csv,text/csv",
  tcgcsv: ".json,application/json",
  scryfall: ".json,application/json",
  pokemontcg: ".json,application/json",
};

const STATUS: Record<FeedRun["status"], { label: string; variant: "success" | "danger" | "info" }> = {
  done: { label: "Done", variant: "success" },
  failed: { label: "Failed", variant: "danger" },
  running: { label: "Running", variant: "info" },
};

/** One feed: its format, where it comes from, its last run, and its file uploaded by hand. */
export function FeedCard({ feed }: { feed: PriceFeed }) {
  const id = useId();
  const run = useRunFeed();
  const onRun = (files: FeedFiles | null) =>
    run.mutateAsync(
      { feedId: feed.id, files },
      {
        onSuccess: (done) => {
          if (done.status === "failed") notify.error(runSummary(feed.name, done));
          else notify.success(runSummary(feed.name, done));
        },
        onError: (err) => notify.error(failureText(RUN_FAILED, err)),
      },
    );
  return (
    <article
      aria-labelledby={`${id}-name`}
      aria-busy={run.isPending || undefined}
      data-testid="feed-card"
      className="flex flex-col gap-3 rounded-lg border border-gray-200 p-3 dark:border-gray-700"
    >
      <div className="min-w-0">
        <h3 id={`${id}-name`} className="break-words font-semibold">
          {feed.name}
        </h3>
        <p className="text-sm text-gray-700 dark:text-gray-300">{FEED_FORMAT_LABELS[feed.format]}</p>
        <p className="break-all text-xs text-gray-700 dark:text-gray-300">
          {feed.url ? `Fetched every day from ${feed.url}` : "Uploaded by hand"}
        </p>
      </div>
      <LastRun run={feed.last_run} />
      <FeedUpload feed={feed} busy={run.isPending} onUpload={(files) => onRun(files)} />
      {feed.url ? (
        <div>
          <Button variant="outline" size="sm" onClick={() => void onRun(null).catch(() => undefined)} disabled={run.isPending}>
            <CloudDownload aria-hidden="true" className="h-4 w-4" />
            Fetch now
          </Button>
        </div>
      ) : null}
    </article>
  );
}

function LastRun({ run }: { run: FeedRun | null }) {
  if (!run) return <p className="text-sm">Never read yet.</p>;
  const status = STATUS[run.status];
  const problems = run.problems.slice(0, PROBLEMS_SHOWN);
  const more = run.problems.length - problems.length;
  return (
    <div className="flex flex-col gap-1.5 text-sm" data-testid="feed-last-run">
      <p className="flex flex-wrap items-center gap-x-2 gap-y-1">
        <span className="font-medium">
          Last run <time dateTime={run.day}>{run.day}</time>
        </span>
        <Badge variant={status.variant}>{status.label}</Badge>
      </p>
      {run.status === "failed" ? null : (
        <dl className="grid grid-cols-3 gap-2 text-center">
          {(
            [
              ["Records", run.records],
              ["Matched", run.matched],
              ["Proposals", run.proposals],
            ] as const
          ).map(([label, value]) => (
            <div key={label} className="rounded-md bg-gray-50 p-1.5 dark:bg-gray-800">
              <dt className="text-xs text-gray-700 dark:text-gray-300">{label}</dt>
              <dd className="font-semibold tabular-nums">{count(value)}</dd>
            </div>
          ))}
        </dl>
      )}
      {run.error ? <p className="break-words font-medium text-red-800 dark:text-red-200">Error: {run.error}</p> : null}
      {problems.length > 0 ? (
        <div>
          <p className="font-medium">Problems ({count(run.problems.length)})</p>
          <ul className="list-disc pl-5 text-xs">
            {problems.map((p) => (
              <li key={p} className="break-words">
                {p}
              </li>
            ))}
            {more > 0 ? <li>... and {count(more)} more</li> : null}
          </ul>
        </div>
      ) : null}
    </div>
  );
}

interface FeedUploadProps {
  feed: PriceFeed;
  busy: boolean;
  onUpload: (files: FeedFiles) => Promise<unknown>;
}

/** The feed's file (TCGCSV: its products and prices files) and "Upload file": read now, the row shows the run. */
function FeedUpload({ feed, busy, onUpload }: FeedUploadProps) {
  const id = useId();
  const two = isTwoFiles(feed.format);
  const formRef = useRef<HTMLFormElement>(null);
  const [error, setError] = useState<string | null>(null);
  const inputs = two
    ? ([
        ["products", "Products file (JSON)"],
        ["prices", "Prices file (JSON)"],
      ] as const)
    : ([["file", "Feed file"]] as const);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const picked = (name: string) => {
      const file = data.get(name);
      return file instanceof Blob && file.size > 0 ? file : null;
    };
    const products = picked("products");
    const prices = picked("prices");
    const file = picked("file");
    const files: FeedFiles | null = two ? (products && prices ? { products, prices } : null) : file ? { file } : null;
    if (!files) return setError(two ? "Choose the products file and the prices file" : "Choose the feed's file");
    setError(null);
    try {
      await onUpload(files);
      formRef.current?.reset();
    } catch {
      // Said in a message; the files stay chosen to try again.
    }
  };

  return (
    <form ref={formRef} onSubmit={(e) => void submit(e)} onChange={() => setError(null)} className="flex flex-col gap-2" noValidate>
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
        {inputs.map(([name, label]) => (
          <div key={name} className="flex min-w-0 flex-col gap-1">
            <Label htmlFor={`${id}-${name}`}>
              {label}
              <span className="sr-only"> for {feed.name}</span>
            </Label>
            <input
              id={`${id}-${name}`}
              name={name}
              type="file"
              accept={ACCEPT[feed.format]}
              disabled={busy}
              aria-describedby={error ? `${id}-error` : undefined}
              className="max-w-full text-sm file:mr-2 file:rounded-md file:border file:border-gray-400 file:bg-white file:px-2 file:py-1 file:text-sm file:font-medium dark:file:border-gray-500 dark:file:bg-gray-900 dark:file:text-gray-50"
            />
          </div>
        ))}
      </div>
      <FieldError id={`${id}-error`}>{error}</FieldError>
      <div className="flex items-center gap-2">
        <Button type="submit" size="sm" disabled={busy} aria-label={`Upload file for ${feed.name}`}>
          <Upload aria-hidden="true" className="h-4 w-4" />
          Upload file
        </Button>
        {busy ? (
          <span className="flex items-center gap-2 text-sm">
            <Spinner label={`Reading ${feed.name}`} />
            Reading the file...
          </span>
        ) : null}
      </div>
    </form>
  );
}
