import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Clapperboard, History, Radio } from "lucide-react";
import { type FormEvent, useState } from "react";
import { SHOW_NAME_MAX } from "../../../../contract/show-rules";
import type { ShowLine, ShowSummary } from "../../../../contract/shows";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Card } from "../../../components/ui/card";
import { Dialog } from "../../../components/ui/dialog";
import { FieldError, Input, Label } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { errorText, notify } from "../../notifications";
import { DownloadCsv, ShowLines, ShowTimes, ShowTotalsLine } from "./show-summary";
import { endShow, getShow, listShows, showKeys, startShow } from "./shows-api";
import { rememberCurrentShow } from "./use-current-show";

export const START_FAILED = "Failed to start the show";
export const END_FAILED = "Failed to end the show";

interface ShowPanelProps {
  userId: number;
  /** The running show (null: none; undefined: not known yet). */
  current: ShowSummary | null | undefined;
  /** Undo a line's latest tap (a new opposite tap in the show). */
  onUndoLine: (line: ShowLine) => void;
}

/**
 * Shows in the streamer view: start one with a name; while it runs, the tally of what sold and
 * was added, per product, newest first, each line undoable; End show gives the summary and its
 * CSV. Past shows (every show for managers) open their summaries.
 */
export default function ShowPanel({ userId, current, onUndoLine }: ShowPanelProps) {
  const queryClient = useQueryClient();
  const [summary, setSummary] = useState<ShowSummary | null>(null);
  const [confirmEnd, setConfirmEnd] = useState(false);
  const [pastOpen, setPastOpen] = useState(false);

  const end = useMutation({
    mutationFn: (id: number) => endShow(id),
    onSuccess: (final) => {
      rememberCurrentShow(userId, null);
      queryClient.setQueryData(showKeys.current, null);
      void queryClient.invalidateQueries({ queryKey: showKeys.list });
      setConfirmEnd(false);
      setSummary(final);
    },
    onError: (err) => notify.error(`${END_FAILED}: ${errorText(err)}`),
  });

  return (
    <Card role="region" className="p-4" aria-labelledby="show-panel-title" data-testid="show-panel">
      {current ? (
        <>
          <div className="flex flex-wrap items-start justify-between gap-2">
            <div className="min-w-0">
              <h2 id="show-panel-title" className="flex flex-wrap items-center gap-2 text-lg font-bold">
                <Radio aria-hidden="true" className="h-5 w-5 text-red-700 dark:text-red-400" />
                <span className="break-words" data-testid="show-name">
                  {current.show.name}
                </span>
                <Badge variant="danger">Running</Badge>
              </h2>
              <ShowTimes summary={current} />
            </div>
            {confirmEnd ? (
              <div className="flex flex-wrap items-center gap-2">
                <span className="text-sm font-medium">End this show?</span>
                <Button variant="danger" size="sm" disabled={end.isPending} onClick={() => end.mutate(current.show.id)}>
                  {end.isPending ? "Ending..." : "Yes, end show"}
                </Button>
                <Button variant="outline" size="sm" disabled={end.isPending} onClick={() => setConfirmEnd(false)}>
                  Keep running
                </Button>
              </div>
            ) : (
              <Button variant="outline" size="sm" onClick={() => setConfirmEnd(true)}>
                End show
              </Button>
            )}
          </div>
          <ShowTotalsLine totals={current.totals} className="mt-2" />
          <div className="mt-2">
            <ShowLines lines={current.lines} onUndo={onUndoLine} label={`Tally of ${current.show.name}`} />
          </div>
        </>
      ) : (
        <>
          <h2 id="show-panel-title" className="flex items-center gap-2 text-lg font-bold">
            <Clapperboard aria-hidden="true" className="h-5 w-5" />
            Show
          </h2>
          <p className="mt-1 text-sm text-gray-700 dark:text-gray-300">
            Start a show to keep a ledger of what sells during this stream, to reconcile with the marketplace's orders.
          </p>
          {current === undefined ? <Spinner label="Loading the show" /> : <StartShowForm userId={userId} />}
        </>
      )}
      <div className="mt-3 border-t border-gray-200 pt-3 dark:border-gray-800">
        <Button variant="ghost" size="sm" aria-expanded={pastOpen} onClick={() => setPastOpen((o) => !o)}>
          <History aria-hidden="true" className="h-4 w-4" />
          Past shows
        </Button>
        {pastOpen ? <PastShows onOpen={setSummary} /> : null}
      </div>
      {summary ? <ShowSummaryDialog summary={summary} onClose={() => setSummary(null)} /> : null}
    </Card>
  );
}

function StartShowForm({ userId }: { userId: number }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState("");
  const [error, setError] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: (showName: string) => startShow(showName),
    onSuccess: (show) => {
      rememberCurrentShow(userId, show);
      queryClient.setQueryData(showKeys.current, show);
      void queryClient.invalidateQueries({ queryKey: showKeys.list });
      setName("");
    },
    onError: (err) => setError(`${START_FAILED}: ${errorText(err)}`),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!name.trim()) {
      setError("Show name is required");
      return;
    }
    start.mutate(name.trim());
  };
  return (
    <form onSubmit={submit} className="mt-3 flex flex-wrap items-end gap-2" noValidate>
      <div className="min-w-48 flex-1">
        <Label htmlFor="show-name">Show name</Label>
        <Input
          id="show-name"
          value={name}
          maxLength={SHOW_NAME_MAX}
          placeholder="Sunday Pokemon break"
          disabled={start.isPending}
          invalid={error !== null}
          aria-describedby={error ? "show-name-error" : undefined}
          onChange={(e) => {
            setName(e.target.value);
            setError(null);
          }}
        />
      </div>
      <Button type="submit" disabled={start.isPending}>
        {start.isPending ? "Starting..." : "Start show"}
      </Button>
      {error ? (
        <div className="w-full">
          <FieldError id="show-name-error">{error}</FieldError>
        </div>
      ) : null}
    </form>
  );
}

function PastShows({ onOpen }: { onOpen: (summary: ShowSummary) => void }) {
  const shows = useQuery({ queryKey: showKeys.list, queryFn: ({ signal }) => listShows(signal) });
  const [opening, setOpening] = useState<number | null>(null);
  if (shows.isPending) return <Spinner label="Loading past shows" />;
  if (shows.isError) return <p className="mt-2 text-sm text-red-800 dark:text-red-200">{errorText(shows.error)}</p>;
  const past = shows.data.filter((s) => s.ended_at !== null);
  if (past.length === 0) return <p className="mt-2 text-sm text-gray-700 dark:text-gray-300">No past shows yet.</p>;
  const open = async (id: number) => {
    setOpening(id);
    try {
      onOpen(await getShow(id));
    } catch (err) {
      notify.error(errorText(err));
    } finally {
      setOpening(null);
    }
  };
  return (
    <ul className="mt-2 flex flex-col gap-1.5" aria-label="Past shows">
      {past.map((s) => (
        <li key={s.id}>
          <button
            type="button"
            disabled={opening === s.id}
            onClick={() => void open(s.id)}
            className="flex w-full flex-wrap items-center justify-between gap-x-3 rounded-lg border border-gray-300 px-3 py-2 text-left text-sm hover:bg-gray-50 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-700 dark:hover:bg-gray-800"
          >
            <span className="min-w-0 font-semibold break-words">{s.name}</span>
            <span className="text-gray-700 dark:text-gray-300">
              {s.started_by_name} · {new Date(s.started_at).toLocaleDateString([], { month: "short", day: "numeric", year: "numeric" })} ·
              sold {s.totals.sold}, added {s.totals.added}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function ShowSummaryDialog({ summary, onClose }: { summary: ShowSummary; onClose: () => void }) {
  return (
    <Dialog
      onClose={onClose}
      size="lg"
      title={`Show summary: ${summary.show.name}`}
      description={<ShowTimes summary={summary} />}
      footer={
        <>
          <Button variant="outline" onClick={onClose}>
            Close
          </Button>
          <DownloadCsv summary={summary} />
        </>
      }
    >
      <ShowTotalsLine totals={summary.totals} />
      <div className="mt-3">
        <ShowLines lines={summary.lines} label={`Summary of ${summary.show.name}`} />
      </div>
    </Dialog>
  );
}
