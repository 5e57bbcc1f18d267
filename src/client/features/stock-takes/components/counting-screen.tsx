import { useQueryClient } from "@tanstack/react-query";
import { Camera, CameraOff } from "lucide-react";
import { type FormEvent, Suspense, useCallback, useEffect, useMemo, useRef, useState } from "react";
import {
  parseStackCount,
  SCANS_PER_REQUEST_MAX,
  type ScanAnswer,
  type ScanResult,
  STOCK_TAKE_MESSAGES,
} from "../../../../contract/stock-takes";
import { Button } from "../../../components/ui/button";
import { Input, Label } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { ApiError, loadErrorText, messageOr, normaliseError } from "../../../lib/http";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { CameraView } from "../../scanner";
import { sendScans, useCounted, useFinishCounting, useLocations, useStockTake } from "../api/stock-takes";
import { beep } from "../beep";
import { applyScans } from "../live";
import { newScanId, type QueuedScan, readQueue, writeQueue } from "../scan-queue";
import { StatusBadge } from "./status-badge";

export interface CountingScreenProps {
  id: number;
  onReview: (id: number) => void;
  onList: () => void;
}

/** What the last scan found, as the screen shows and says it. */
interface Shown {
  kind: ScanResult | "queued" | "question" | "stack" | "error";
  text: string;
}

const SHOWN_STYLES: Record<Shown["kind"], string> = {
  found: "border-green-700 bg-green-50 text-green-950 dark:border-green-500 dark:bg-green-950 dark:text-green-50",
  new_to_location: "border-blue-700 bg-blue-50 text-blue-950 dark:border-blue-400 dark:bg-blue-950 dark:text-blue-50",
  unknown: "border-red-700 bg-red-50 text-red-950 dark:border-red-400 dark:bg-red-950 dark:text-red-50",
  already_counted: "border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50",
  question: "border-amber-600 bg-amber-50 text-amber-950 dark:border-amber-400 dark:bg-amber-950 dark:text-amber-50",
  queued: "border-gray-500 bg-gray-50 text-gray-950 dark:border-gray-400 dark:bg-gray-900 dark:text-gray-50",
  stack: "border-gray-500 bg-gray-50 text-gray-950 dark:border-gray-400 dark:bg-gray-900 dark:text-gray-50",
  error: "border-red-700 bg-red-50 text-red-950 dark:border-red-400 dark:bg-red-950 dark:text-red-50",
};

/** The words for a scan's answer: "Found", "New to this location", "Unknown barcode", "Already counted 3". */
export function answerText(answer: ScanAnswer, barcode: string): Shown {
  const name = answer.product_name ?? barcode;
  switch (answer.result) {
    case "found":
      return { kind: "found", text: `Found: ${name}. Counted ${answer.counted}.` };
    case "new_to_location":
      return { kind: "new_to_location", text: `New to this location: ${name}. Counted ${answer.counted}.` };
    case "unknown":
      return { kind: "unknown", text: `Unknown barcode ${barcode}. Recorded ${answer.counted}.` };
    case "already_counted":
      return { kind: "already_counted", text: `Already counted ${answer.count}: ${name}. Counted ${answer.counted} now.` };
  }
}

/** "x 24 0820650853548" or "0820650853548 x 24": a barcode with its stack's count. */
function barcodeWithCount(text: string): { barcode: string; quantity: number } | null {
  const before = /^\s*[x×*]\s*(\d{1,6})\s+(\S+)\s*$/i.exec(text);
  const after = /^\s*(\S+)\s+[x×*]\s*(\d{1,6})\s*$/i.exec(text);
  const [count, barcode] = before ? [before[1], before[2]] : after ? [after[2], after[1]] : [undefined, undefined];
  const quantity = count === undefined ? undefined : parseStackCount(count);
  return barcode && quantity !== undefined ? { barcode, quantity } : null;
}

const locationKey = (id: number) => `blez-stock-take-location:${id}`;
const RETRY_MS = 3000;
/** Answers that refuse the scans for good; any other failure keeps them waiting. */
const NEVER_APPLIES = new Set([400, 403, 404, 409, 422]);
/** The camera sees a code in many frames: the same one again within this long is the same scan. */
const CAMERA_SAME_CODE_MS = 2500;

/**
 * The counting screen of one stock take, for a phone or a USB scanner: the scan field keeps focus,
 * each Enter is a scan (or a typed stack count, "x 24"); each answer beeps, shows in its colour and
 * is read out (aria-live). Scans queue on this device (scan-queue.ts) and are sent in order, each
 * once (client_scan_id); offline they wait and go when the browser is back online.
 */
export function CountingScreen({ id, onReview, onList }: CountingScreenProps) {
  const { user } = useAuth();
  const userId = user?.id ?? 0;
  const queryClient = useQueryClient();
  const take = useStockTake(id);
  const countedLines = useCounted(id);
  const locations = useLocations();
  const finish = useFinishCounting();

  const [entry, setEntry] = useState("");
  const [shown, setShown] = useState<Shown | null>(null);
  const [pendingCount, setPendingCount] = useState<number | null>(null);
  const [question, setQuestion] = useState<{ barcode: string; count: number; quantity: number } | null>(null);
  // Read by a scan's answer: it does not take the place of an open question.
  const questionRef = useRef(question);
  questionRef.current = question;
  const [last, setLast] = useState<{ barcode: string; quantity: number } | null>(null);
  const [camera, setCamera] = useState(false);
  const [queue, setQueue] = useState<QueuedScan[]>(() => readQueue(userId, id));
  const queueRef = useRef(queue);
  const inputRef = useRef<HTMLInputElement>(null);

  const [locationId, setLocationId] = useState<string>(() => {
    try {
      return localStorage.getItem(locationKey(id)) ?? "";
    } catch {
      return "";
    }
  });

  // The locations this session counts: its own, or every location for the whole shop.
  const scopeLocations = useMemo(() => {
    const all = locations.data ?? [];
    const scope = take.data?.scope;
    if (!scope || "whole_shop" in scope) return all;
    return all.filter((l) => scope.location_ids.includes(l.id));
  }, [locations.data, take.data]);
  const wholeShop = take.data ? "whole_shop" in take.data.scope : false;
  // One location only: it is the current one.
  useEffect(() => {
    const only = scopeLocations.length === 1 && !wholeShop ? scopeLocations[0] : undefined;
    if (only && locationId !== String(only.id)) setLocationId(String(only.id));
  }, [scopeLocations, wholeShop, locationId]);
  useEffect(() => {
    try {
      localStorage.setItem(locationKey(id), locationId);
    } catch {
      // Not kept: chosen again after a reload.
    }
  }, [id, locationId]);
  const locationChosen = wholeShop || locationId !== "";
  const locationName = scopeLocations.find((l) => String(l.id) === locationId)?.name;

  const setQueued = useCallback(
    (next: QueuedScan[]) => {
      queueRef.current = next;
      setQueue(next);
      writeQueue(userId, id, next);
    },
    [userId, id],
  );

  const focusScan = useCallback(() => inputRef.current?.focus({ preventScroll: true }), []);
  // The field is ready once the location is known (and the session loaded): scanning starts there.
  const ready = locationChosen && take.data?.status === "counting";
  useEffect(() => {
    if (ready) focusScan();
  }, [ready, focusScan]);

  // Sending: one request at a time, the oldest scans first; a failure of the network or the server
  // keeps them and tries again (and at once when the browser is back online).
  const sending = useRef(false);
  const retry = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const flush = useCallback(async () => {
    if (sending.current) return;
    sending.current = true;
    clearTimeout(retry.current);
    try {
      while (queueRef.current.length > 0) {
        const batch = queueRef.current.slice(0, SCANS_PER_REQUEST_MAX);
        let answers: ScanAnswer[];
        try {
          const answer = await sendScans(id, { scans: batch, device: deviceName() });
          answers = answer.scans;
          applyScans(queryClient, answer.stock_take, answers);
        } catch (err) {
          const error = normaliseError(err);
          if (error instanceof ApiError && error.status !== null && NEVER_APPLIES.has(error.status)) {
            // Refused (the count has finished, a location gone): these scans can never apply. A
            // 401 (signed out), 429 or 5xx keeps them for later.
            const sent = new Set(batch.map((s) => s.client_scan_id));
            setQueued(queueRef.current.filter((s) => !sent.has(s.client_scan_id)));
            setShown({ kind: "error", text: `${error.message}. ${batch.length} scan(s) not counted.` });
            beep("unknown");
          } else {
            retry.current = setTimeout(() => void flush(), RETRY_MS);
          }
          return;
        }
        const answered = new Set(answers.map((a) => a.client_scan_id));
        setQueued(queueRef.current.filter((s) => !answered.has(s.client_scan_id)));
        const latest = answers.at(-1);
        if (latest && !questionRef.current) {
          const text = answerText(latest, latest.scan.barcode);
          setShown(answers.length > 1 ? { ...text, text: `${answers.length} waiting scans sent. Last: ${text.text}` } : text);
          beep(latest.result);
        }
      }
    } finally {
      sending.current = false;
    }
  }, [id, setQueued, queryClient]);

  // Scans left from before (a reload, a closed tab): sent once this screen opens; again whenever back online.
  useEffect(() => {
    void flush();
    const online = () => void flush();
    window.addEventListener("online", online);
    return () => {
      window.removeEventListener("online", online);
      clearTimeout(retry.current);
    };
  }, [flush]);

  // What this session has counted of each barcode: every device's (its answers and live scans patch it), and what waits here.
  const countOf = useCallback(
    (barcode: string) => {
      const line = countedLines.data?.lines.find((l) => l.barcode === barcode);
      const waiting = queueRef.current.filter((s) => s.barcode === barcode).reduce((n, s) => n + s.quantity, 0);
      return (line?.counted ?? 0) + waiting;
    },
    [countedLines.data],
  );

  const count = useCallback(
    (barcode: string, quantity: number) => {
      const scan: QueuedScan = {
        client_scan_id: newScanId(),
        barcode,
        quantity,
        ...(locationId && !Number.isNaN(Number(locationId)) ? { location_id: Number(locationId) } : {}),
      };
      setQueued([...queueRef.current, scan]);
      setLast({ barcode, quantity });
      if (typeof navigator !== "undefined" && navigator.onLine === false) {
        setShown({
          kind: "queued",
          text: `Saved on this device: ${barcode}${quantity > 1 ? ` x ${quantity}` : ""}. It is sent when back online.`,
        });
        beep("queued");
      } else {
        void flush();
      }
    },
    [locationId, setQueued, flush],
  );

  const scan = useCallback(
    (barcode: string, quantity: number) => {
      if (question) {
        // The same code again (the camera still on it) leaves the question; another code answers "no".
        if (question.barcode === barcode) return;
        setQuestion(null);
      }
      const before = countOf(barcode);
      if (before > 0) {
        setQuestion({ barcode, count: before, quantity });
        setShown({ kind: "question", text: `Already counted ${before}: ${barcode}. Add ${quantity === 1 ? "one" : quantity} more?` });
        beep("question");
        return;
      }
      count(barcode, quantity);
    },
    [question, countOf, count],
  );

  const answerQuestion = useCallback(
    (yes: boolean) => {
      if (!question) return;
      setQuestion(null);
      if (yes) count(question.barcode, question.quantity);
      else setShown({ kind: "queued", text: `Not counted again: ${question.barcode}.` });
      focusScan();
    },
    [question, count, focusScan],
  );

  function handleEntry(raw: string) {
    const text = raw.trim();
    if (!text) {
      // Enter on the empty field: yes to the question; else a count typed after a scan is that scan's.
      if (question) answerQuestion(true);
      else if (pendingCount !== null && last) stackOnLast();
      return;
    }
    const stack = parseStackCount(text);
    // A count alone: the next scan counts it (or, with the button, the last one).
    if (stack !== undefined && /^\s*[x×*]/i.test(text)) {
      setPendingCount(stack);
      setShown({ kind: "stack", text: `Next scan counts ${stack}.` });
      return;
    }
    const both = barcodeWithCount(text);
    const quantity = both?.quantity ?? pendingCount ?? 1;
    setPendingCount(null);
    scan(both?.barcode ?? text, quantity);
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const value = inputRef.current?.value ?? entry;
    setEntry("");
    handleEntry(value);
    focusScan();
  }

  function stackOnLast() {
    if (pendingCount === null || !last) return;
    const more = pendingCount - last.quantity;
    setPendingCount(null);
    if (more > 0) {
      count(last.barcode, more);
      setLast({ barcode: last.barcode, quantity: pendingCount });
    } else setShown({ kind: "stack", text: `The last scan already counted ${last.quantity}.` });
    focusScan();
  }

  const cameraSeen = useRef<{ code: string; at: number } | null>(null);
  const onCameraCode = (code: string) => {
    const now = Date.now();
    const seen = cameraSeen.current;
    if (seen && seen.code === code) {
      // Its scan still waits for its answer: the same scan, and the wait starts again once it is shown.
      if (queueRef.current.some((s) => s.barcode === code)) {
        cameraSeen.current = { code, at: now };
        return;
      }
      if (now - seen.at < CAMERA_SAME_CODE_MS) return;
    }
    cameraSeen.current = { code, at: now };
    handleEntry(code);
  };

  async function onFinish() {
    try {
      await finish.mutateAsync(id);
      onReview(id);
    } catch (err) {
      notify.error(messageOr(err, "Failed to finish counting"));
    }
  }

  if (take.isPending) {
    return (
      <p className="flex items-center gap-2" aria-busy="true">
        <Spinner /> Loading the stock take...
      </p>
    );
  }
  if (take.isError) {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="alert">{loadErrorText(take.error)}</p>
        <Button variant="outline" onClick={onList}>
          Back to stock takes
        </Button>
      </div>
    );
  }

  const session = take.data;
  const counting = session.status === "counting";
  const counted = countedLines.data?.lines ?? [];
  const items = counted.reduce((n, l) => n + l.counted, 0);

  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-bold">Stock take #{session.number}</h1>
        <StatusBadge status={session.status} />
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onList}>
          All stock takes
        </Button>
      </div>

      {!counting ? (
        <div className="flex flex-col items-start gap-2">
          <p>{STOCK_TAKE_MESSAGES.notCounting}.</p>
          <Button onClick={() => onReview(id)}>See the review</Button>
        </div>
      ) : (
        <>
          <div className="flex flex-col gap-1">
            <Label htmlFor="count-location">Counting in</Label>
            <select
              id="count-location"
              className="h-12 rounded-lg border border-gray-400 bg-white px-3 text-base dark:border-gray-600 dark:bg-gray-800 dark:text-gray-50"
              value={locationId}
              onChange={(e) => {
                setLocationId(e.target.value);
                focusScan();
              }}
            >
              <option value="">{wholeShop ? "No particular location" : "Choose a location"}</option>
              {scopeLocations.map((l) => (
                <option key={l.id} value={String(l.id)}>
                  {l.name}
                </option>
              ))}
            </select>
          </div>

          <form onSubmit={onSubmit} className="flex flex-col gap-1">
            <Label htmlFor="scan-entry">Scan or type a barcode</Label>
            <div className="flex gap-2">
              <Input
                id="scan-entry"
                ref={inputRef}
                value={entry}
                onChange={(e) => setEntry(e.target.value)}
                onKeyDown={(e) => {
                  if (e.key === "Escape" && question) {
                    e.preventDefault();
                    answerQuestion(false);
                  }
                }}
                autoFocus
                disabled={!locationChosen}
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                enterKeyHint="go"
                aria-describedby="scan-hint"
                className="h-12 text-lg"
              />
              <Button type="submit" size="lg" disabled={!locationChosen}>
                Count
              </Button>
            </div>
            <p id="scan-hint" className="text-sm text-gray-700 dark:text-gray-300">
              {locationChosen
                ? `A USB scanner types the barcode and Enter. A stack: type "x 24" and Enter, then scan it (or press Enter again for the scan just made), or "x 24" with its barcode.`
                : "Choose where you are counting first."}
            </p>
          </form>

          <div className="flex flex-wrap items-center gap-2">
            <Button
              variant="outline"
              onClick={() => {
                setCamera((c) => !c);
                focusScan();
              }}
              aria-pressed={camera}
              disabled={!locationChosen}
            >
              {camera ? <CameraOff aria-hidden="true" className="h-5 w-5" /> : <Camera aria-hidden="true" className="h-5 w-5" />}
              {camera ? "Stop camera" : "Scan with camera"}
            </Button>
            {pendingCount !== null ? (
              <span
                className="flex flex-wrap items-center gap-2 rounded-lg bg-gray-200 px-3 py-1 dark:bg-gray-800"
                data-testid="pending-count"
              >
                Next scan counts {pendingCount}
                {last ? (
                  <Button size="sm" variant="outline" onClick={stackOnLast}>
                    Count the last scan ({last.barcode}) as {pendingCount} instead
                  </Button>
                ) : null}
                <Button
                  size="sm"
                  variant="ghost"
                  onClick={() => {
                    setPendingCount(null);
                    focusScan();
                  }}
                >
                  Clear count
                </Button>
              </span>
            ) : null}
          </div>

          {camera && locationChosen ? (
            <Suspense
              fallback={
                <p className="flex items-center gap-2">
                  <Spinner /> Starting the camera...
                </p>
              }
            >
              <div className="max-w-md">
                <CameraView decoding onDetected={onCameraCode} />
              </div>
            </Suspense>
          ) : null}

          <div
            data-testid="scan-result"
            data-result={shown?.kind ?? ""}
            className={cn(
              "min-h-16 rounded-lg border-2 p-3 text-lg font-semibold",
              shown ? SHOWN_STYLES[shown.kind] : "border-dashed border-gray-400",
            )}
          >
            <p role="status" aria-live="assertive" aria-atomic="true">
              {shown?.text ?? (locationName ? `Ready to count in ${locationName}.` : "Ready to count.")}
            </p>
            {question ? (
              <div className="mt-2 flex flex-wrap gap-2">
                <Button variant="warning" onClick={() => answerQuestion(true)}>
                  Add one more
                </Button>
                <Button variant="outline" onClick={() => answerQuestion(false)}>
                  Don't count
                </Button>
                <span className="self-center text-sm font-normal">Enter: add · Escape: don't count</span>
              </div>
            ) : null}
          </div>

          <p className="text-sm" data-testid="waiting-scans" aria-live="polite">
            {queue.length === 0 ? "Every scan is sent." : `${queue.length} scan${queue.length === 1 ? "" : "s"} waiting to be sent.`}
            {queue.length > 0 ? (
              <Button size="sm" variant="ghost" onClick={() => void flush()}>
                Send now
              </Button>
            ) : null}
          </p>

          <section aria-labelledby="counted-heading" className="flex flex-col gap-2">
            <h2 id="counted-heading" className="text-lg font-semibold">
              Counted so far
            </h2>
            <p data-testid="running-totals">
              {counted.length} product{counted.length === 1 ? "" : "s"}, {items} item{items === 1 ? "" : "s"} · {session.scans} scan
              {session.scans === 1 ? "" : "s"} on all devices
            </p>
            {countedLines.isError ? <p role="alert">{loadErrorText(countedLines.error)}</p> : null}
            {counted.length > 0 ? (
              <ul className="flex flex-col divide-y divide-gray-200 rounded-lg border border-gray-300 bg-white dark:divide-gray-700 dark:border-gray-700 dark:bg-gray-900">
                {counted.map((l) => (
                  <li
                    key={`${l.product_id ?? "unknown"}-${l.barcode}`}
                    className="flex items-center gap-2 px-3 py-2"
                    data-testid="counted-line"
                  >
                    <span className="min-w-0 flex-1 truncate">{l.name ?? `Unknown barcode ${l.barcode}`}</span>
                    <span className="font-mono text-sm">{l.barcode}</span>
                    <span className="w-12 text-right font-semibold tabular-nums">{l.counted}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>

          <div className="flex flex-wrap gap-2 border-t border-gray-300 pt-3 dark:border-gray-700">
            <Button size="lg" onClick={() => void onFinish()} disabled={queue.length > 0 || finish.isPending}>
              {finish.isPending ? "Finishing..." : "Finish counting"}
            </Button>
            <Button size="lg" variant="outline" onClick={() => onReview(id)}>
              Review so far
            </Button>
            {queue.length > 0 ? <p className="self-center text-sm">Finish once every scan is sent.</p> : null}
          </div>
        </>
      )}
    </div>
  );
}

/** This device's name in the scans ("iPhone", "USB scanner" cannot be told apart: the browser's platform). */
function deviceName(): string | undefined {
  if (typeof navigator === "undefined") return undefined;
  const phone = /Mobi|Android|iPhone/i.test(navigator.userAgent);
  return phone ? "Phone" : "Computer";
}
