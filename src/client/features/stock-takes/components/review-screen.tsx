import { Download } from "lucide-react";
import { type ReactNode, Suspense, useMemo, useState } from "react";
import { canManageIntegrations } from "../../../../contract/permissions";
import type { ReviewLine, StockTakeReview } from "../../../../contract/stock-takes";
import { PdfButton } from "../../../components/pdf-button";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Spinner } from "../../../components/ui/spinner";
import { downloadBlob } from "../../../lib/download";
import { ApiError, loadErrorText, messageOr } from "../../../lib/http";
import { AuditDialog } from "../../audit";
import { useAuth } from "../../auth";
import { notify } from "../../notifications";
import { AddProductDialog } from "../../products";
import { useMoney } from "../../settings";
import {
  useApproveStockTake,
  useCancelStockTake,
  useDropUnknown,
  useKeepMisplaced,
  useLinkUnknown,
  useLocations,
  useMoveMisplaced,
  useReview,
} from "../api/stock-takes";
import { reviewCsv, reviewCsvName } from "../review-csv";
import { LINE_STATUS_LABELS, reviewPdf, reviewPdfName } from "../review-pdf";
import { StatusBadge } from "./status-badge";

export interface ReviewScreenProps {
  id: number;
  onCount: (id: number) => void;
  onList: () => void;
}

const lineKey = (l: ReviewLine) => `${l.product_id ?? "unknown"}-${l.barcode}`;
const signed = (n: number) => (n > 0 ? `+${n}` : String(n));
const sameName = (a: string | null, b: string | null) => (a ?? "").trim().toLowerCase() === (b ?? "").trim().toLowerCase();
/** The locations a misplaced product was found in, away from its own: where it may be moved. */
const elsewhere = (l: ReviewLine) => l.found_in.filter((name) => name !== "" && !sameName(name, l.location));

/** A change the review asks to confirm first: a product's location, scans linked to a product, or scans dropped. */
type Confirm =
  | { kind: "move"; line: ReviewLine; location: string }
  | { kind: "link"; line: ReviewLine; product: { id: number; name: string } }
  | { kind: "drop"; line: ReviewLine };

/** What the question of each change says, and its buttons. */
function confirmTexts(c: Confirm): { title: string; description: string; no: string; yes: string; busy: string } {
  const name = c.line.name ?? c.line.barcode;
  switch (c.kind) {
    case "move":
      return {
        title: `Move ${name} to ${c.location}?`,
        description: `Its location changes from ${c.line.location || "none"} to ${c.location}, as an edit of the product (in its audit). It is then counted there.`,
        no: "Don't move",
        yes: "Move",
        busy: "Moving...",
      };
    case "link":
      return {
        title: `Link ${c.line.barcode} to ${c.product.name}?`,
        description: `Its ${c.line.counted} counted become ${c.product.name}'s, its expected quantity taken now.`,
        no: "Don't link",
        yes: "Link",
        busy: "Linking...",
      };
    case "drop":
      return {
        title: `Drop the scans of ${c.line.barcode}?`,
        description: `The ${c.line.counted} counted are kept for the record but left out of the review and the report. A later scan of it is unknown again.`,
        no: "Keep them",
        yes: "Drop",
        busy: "Dropping...",
      };
  }
}

/**
 * The review of one stock take: per product and per location the expected, counted and difference
 * figures with the difference's value at cost and at price; the products never scanned, found in
 * another location, and the unknown barcodes. A manager approves all or the ones ticked; anyone who
 * counts may cancel; after approval each product's audit is a click away. The CSV is made here from
 * the review's answer.
 */
export function ReviewScreen({ id, onCount, onList }: ReviewScreenProps) {
  const review = useReview(id);
  // To name the scope's locations in the PDF.
  const locations = useLocations();
  const { user } = useAuth();
  const manager = user ? canManageIntegrations(user.role) : false;
  const money = useMoney();
  const approve = useApproveStockTake();
  const cancel = useCancelStockTake();
  const [picked, setPicked] = useState<Set<number> | null>(null);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [audit, setAudit] = useState<{ id: number; product_name: string } | null>(null);
  const move = useMoveMisplaced();
  const keep = useKeepMisplaced();
  const link = useLinkUnknown();
  const drop = useDropUnknown();
  /** The line an action is running on (its buttons wait), what to confirm, and each line's last failure. */
  const [busyLine, setBusyLine] = useState<string | null>(null);
  const [confirm, setConfirm] = useState<Confirm | null>(null);
  const [lineErrors, setLineErrors] = useState<Record<string, string>>({});
  /** The unknown barcode whose Add product form is open, and whether the catalogue had a product for it then. */
  const [creating, setCreating] = useState<ReviewLine | null>(null);

  const products = useMemo(() => (review.data?.lines ?? []).filter((l) => l.product_id !== null), [review.data]);
  // Every product is ticked until the manager unticks one.
  const selected = picked ?? new Set(products.map((l) => l.product_id as number));

  if (review.isPending) {
    return (
      <p className="flex items-center gap-2" aria-busy="true">
        <Spinner /> Loading the review...
      </p>
    );
  }
  if (review.isError) {
    return (
      <div className="flex flex-col items-start gap-2">
        <p role="alert">{loadErrorText(review.error)}</p>
        <div className="flex gap-2">
          <Button variant="outline" onClick={() => void review.refetch()}>
            Try again
          </Button>
          <Button variant="ghost" onClick={onList}>
            All stock takes
          </Button>
        </div>
      </div>
    );
  }

  const data: StockTakeReview = review.data;
  const session = data.stock_take;
  const open = session.status === "counting" || session.status === "review";
  const approved = session.status === "approved";
  // An approval cut off half way ("approving") is finished by approving again.
  const canApprove = manager && (open || (session.status as string) === "approving");

  function toggle(productId: number) {
    const next = new Set(selected);
    if (next.has(productId)) next.delete(productId);
    else next.add(productId);
    setPicked(next);
  }

  async function onApprove(all: boolean) {
    try {
      const answer = await approve.mutateAsync({ id, productIds: all ? undefined : [...selected] });
      const changed = answer.lines.filter((l) => (l.applied ?? 0) !== 0).length;
      notify.success(`Stock take #${session.number} approved: ${changed} product(s) changed`);
      const refused = answer.refused_product_ids?.length ?? 0;
      if (refused > 0) notify.warning(`${refused} product(s) left out: their stock changed while the approval ran (shown as Not approved)`);
    } catch (err) {
      // Products that cannot take their change (disabled, or below 0): unticked, so the others can be approved.
      const refused = err instanceof ApiError ? (err.data as { product_ids?: unknown } | null)?.product_ids : undefined;
      if (Array.isArray(refused) && refused.length > 0) {
        const out = new Set(refused as number[]);
        setPicked(new Set([...selected].filter((pid) => !out.has(pid))));
        notify.error(`${messageOr(err, "Failed to approve the stock take")}. They are unticked.`);
      } else {
        notify.error(messageOr(err, "Failed to approve the stock take"));
      }
    }
  }

  async function onCancel() {
    try {
      await cancel.mutateAsync(id);
      setConfirmCancel(false);
      notify.success(`Stock take #${session.number} cancelled: nothing changed`);
    } catch (err) {
      notify.error(messageOr(err, "Failed to cancel the stock take"));
    }
  }

  /** Runs a review action on a line: its buttons wait, its failure is shown beside it (and announced). */
  async function act(line: ReviewLine, work: () => Promise<string>, failed: string): Promise<boolean> {
    const key = lineKey(line);
    setBusyLine(key);
    setLineErrors(({ [key]: _, ...rest }) => rest);
    try {
      notify.success(await work());
      return true;
    } catch (err) {
      setLineErrors((errors) => ({ ...errors, [key]: messageOr(err, failed) }));
      return false;
    } finally {
      setBusyLine(null);
    }
  }

  async function onConfirmed() {
    if (!confirm) return;
    const { line } = confirm;
    const name = line.name ?? line.barcode;
    if (confirm.kind === "move") {
      const { location } = confirm;
      await act(
        line,
        async () => {
          await move.mutateAsync({ id, productId: line.product_id as number, location });
          return `${name} moved to ${location}`;
        },
        `Failed to move ${name}`,
      );
    } else if (confirm.kind === "link") {
      await linkScans(line, confirm.product);
    } else {
      await act(
        line,
        async () => {
          await drop.mutateAsync({ id, barcode: line.barcode });
          return `Scans of ${line.barcode} dropped`;
        },
        `Failed to drop the scans of ${line.barcode}`,
      );
    }
    // A failure closes the question too: it is shown (and announced) beside its line.
    setConfirm(null);
  }

  function onKeep(line: ReviewLine) {
    const name = line.name ?? line.barcode;
    void act(
      line,
      async () => {
        await keep.mutateAsync({ id, productId: line.product_id as number });
        return `${name} counted where it was found`;
      },
      `Failed to count ${name} where it was found`,
    );
  }

  function linkScans(line: ReviewLine, product: { id: number; name: string }): Promise<boolean> {
    return act(
      line,
      async () => {
        const linked = await link.mutateAsync({ id, barcode: line.barcode, productId: product.id });
        return `${line.barcode} linked to ${product.name}: ${linked.counted} counted`;
      },
      `Failed to link ${line.barcode} to ${product.name}`,
    );
  }

  /** The Add product form closed: when a product has the barcode now (it was just created), its scans are linked to it. */
  async function onCreateClosed(line: ReviewLine) {
    setCreating(null);
    if (line.catalogue_product) return;
    const fresh = await review.refetch();
    const now = fresh.data?.lines.find((l) => l.status === "unknown" && l.barcode === line.barcode);
    if (now?.catalogue_product) await linkScans(now, now.catalogue_product);
  }

  const missing = data.lines.filter((l) => l.status === "missing");
  const misplaced = data.lines.filter((l) => l.status === "misplaced");
  const unknown = data.lines.filter((l) => l.status === "unknown");

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center gap-2">
        <h1 className="text-2xl font-bold">Stock take #{session.number}: review</h1>
        <StatusBadge status={session.status} />
        <Button size="sm" variant="ghost" className="ml-auto" onClick={onList}>
          All stock takes
        </Button>
      </div>
      <p className="text-sm text-gray-700 dark:text-gray-300">
        Started by {session.started_by}, {new Date(session.started_at).toLocaleString()}
        {approved && session.approved_by ? ` · approved by ${session.approved_by}` : ""}
        {session.finished_at ? ` · ${new Date(session.finished_at).toLocaleString()}` : ""}. Expected is each product's stock when it was
        first counted, moved by every sale and change since.
      </p>

      <div className="flex flex-wrap gap-2">
        {session.status === "counting" ? (
          <Button variant="outline" onClick={() => onCount(id)}>
            Back to counting
          </Button>
        ) : null}
        <Button
          variant="outline"
          onClick={() => downloadBlob(reviewCsvName(session.number), new Blob([reviewCsv(data)], { type: "text/csv" }))}
        >
          <Download aria-hidden="true" className="h-4 w-4" />
          Download CSV
        </Button>
        <PdfButton
          variant="outline"
          label="Download PDF"
          busyLabel="Making the PDF..."
          failure="Failed to make the PDF"
          filename={reviewPdfName(session.number)}
          make={() => reviewPdf(data, money, { locations: locations.data })}
        />
        {open ? (
          <Button variant="danger" onClick={() => setConfirmCancel(true)}>
            Cancel stock take
          </Button>
        ) : null}
      </div>

      <section aria-labelledby="totals-heading" className="flex flex-col gap-2">
        <h2 id="totals-heading" className="text-lg font-semibold">
          {approved ? "Result" : "Differences"}
        </h2>
        <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" data-testid="review-totals">
          <Figure label="Products" value={String(data.totals.lines)} />
          <Figure label="Difference" value={signed(data.totals.difference)} />
          <Figure label="At cost" value={money(data.totals.value_at_cost)} />
          <Figure label="At price" value={money(data.totals.value_at_price)} />
        </dl>
        {data.locations.length > 0 ? (
          <section
            className="overflow-x-auto"
            aria-label="Per location"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <table className="w-full min-w-[28rem] text-sm">
              <caption className="sr-only">Differences per location</caption>
              <thead>
                <tr className="text-left">
                  <th scope="col" className="p-2">
                    Location
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Products
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Difference
                  </th>
                  <th scope="col" className="p-2 text-right">
                    At cost
                  </th>
                  <th scope="col" className="p-2 text-right">
                    At price
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.locations.map((l) => (
                  <tr key={l.location} className="border-t border-gray-200 dark:border-gray-700">
                    <th scope="row" className="p-2 text-left font-medium">
                      {l.location || "No location"}
                    </th>
                    <td className="p-2 text-right tabular-nums">{l.lines}</td>
                    <td className="p-2 text-right tabular-nums">{signed(l.difference)}</td>
                    <td className="p-2 text-right tabular-nums">{money(l.value_at_cost)}</td>
                    <td className="p-2 text-right tabular-nums">{money(l.value_at_price)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </section>
        ) : null}
      </section>

      <section aria-labelledby="products-heading" className="flex flex-col gap-2">
        <h2 id="products-heading" className="text-lg font-semibold">
          Products
        </h2>
        {products.length === 0 ? (
          <p>Nothing counted and nothing expected.</p>
        ) : (
          <section
            className="overflow-x-auto rounded-lg border border-gray-300 bg-white dark:border-gray-700 dark:bg-gray-900"
            aria-label="Products table"
            // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (axe scrollable-region-focusable)
            tabIndex={0}
          >
            <table className="w-full min-w-[44rem] text-sm">
              <caption className="sr-only">Expected, counted and difference per product</caption>
              <thead>
                <tr className="text-left">
                  {canApprove ? (
                    <th scope="col" className="p-2">
                      <span className="sr-only">Approve</span>
                    </th>
                  ) : null}
                  <th scope="col" className="p-2">
                    Product
                  </th>
                  <th scope="col" className="p-2">
                    Location
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Expected
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Counted
                  </th>
                  <th scope="col" className="p-2 text-right">
                    Difference
                  </th>
                  <th scope="col" className="p-2 text-right">
                    At cost
                  </th>
                  <th scope="col" className="p-2 text-right">
                    At price
                  </th>
                  <th scope="col" className="p-2">
                    {approved ? "Applied" : "State"}
                  </th>
                </tr>
              </thead>
              <tbody>
                {products.map((l) => {
                  const pid = l.product_id as number;
                  return (
                    <tr key={lineKey(l)} className="border-t border-gray-200 dark:border-gray-700" data-testid="review-line">
                      {canApprove ? (
                        <td className="p-2">
                          <input
                            type="checkbox"
                            className="h-5 w-5"
                            checked={selected.has(pid)}
                            onChange={() => toggle(pid)}
                            aria-label={`Approve ${l.name ?? l.barcode}`}
                          />
                        </td>
                      ) : null}
                      <td className="p-2">
                        <span className="font-medium">{l.name}</span>
                        <span className="block font-mono text-xs text-gray-700 dark:text-gray-300">{l.barcode}</span>
                      </td>
                      <td className="p-2">
                        {l.location ?? ""}
                        {l.placement === "kept" ? (
                          <span className="block text-xs">counted in {l.found_in.filter(Boolean).join(", ")}</span>
                        ) : null}
                        {l.placement === "moved" ? <span className="block text-xs">moved here in this count</span> : null}
                        {l.status === "misplaced" ? (
                          <span className="block text-xs">found in {l.found_in.filter(Boolean).join(", ")}</span>
                        ) : null}
                      </td>
                      <td className="p-2 text-right tabular-nums">{l.expected}</td>
                      <td className="p-2 text-right tabular-nums">{l.counted}</td>
                      <td className="p-2 text-right font-semibold tabular-nums">{signed(l.difference)}</td>
                      <td className="p-2 text-right tabular-nums">{money(l.value_at_cost)}</td>
                      <td className="p-2 text-right tabular-nums">{money(l.value_at_price)}</td>
                      <td className="p-2">
                        {approved ? (
                          <span className="flex items-center gap-2">
                            {l.applied === null ? "Not approved" : signed(l.applied)}
                            <Button size="sm" variant="outline" onClick={() => setAudit({ id: pid, product_name: l.name ?? l.barcode })}>
                              Audit<span className="sr-only"> of {l.name}</span>
                            </Button>
                          </span>
                        ) : (
                          LINE_STATUS_LABELS[l.status]
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </section>
        )}
        {canApprove ? (
          <div className="flex flex-wrap gap-2">
            <Button variant="success" size="lg" onClick={() => void onApprove(true)} disabled={approve.isPending}>
              {approve.isPending ? "Approving..." : "Approve all"}
            </Button>
            <Button size="lg" onClick={() => void onApprove(false)} disabled={approve.isPending || selected.size === 0}>
              Approve selected ({selected.size})
            </Button>
          </div>
        ) : open ? (
          <p className="text-sm">A manager approves the differences; you see them here.</p>
        ) : null}
      </section>

      <LineList title="Expected but never scanned" empty="Every product expected was scanned." lines={missing} />
      <LineList
        title="Found in another location"
        empty="Nothing was found away from its location."
        lines={misplaced}
        errors={lineErrors}
        actions={
          open
            ? (l) => {
                const name = l.name ?? l.barcode;
                const busy = busyLine === lineKey(l);
                return (
                  <>
                    {elsewhere(l).map((location) => (
                      <Button
                        key={location}
                        size="sm"
                        variant="outline"
                        disabled={busy}
                        aria-label={`Move ${name} to ${location}`}
                        onClick={() => setConfirm({ kind: "move", line: l, location })}
                      >
                        Move to {location}
                      </Button>
                    ))}
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={busy}
                      aria-label={`Count ${name} where it was found`}
                      onClick={() => onKeep(l)}
                    >
                      {busy && keep.isPending ? "Counting..." : "Count here"}
                    </Button>
                  </>
                );
              }
            : undefined
        }
      />
      <LineList
        title="Unknown barcodes"
        empty="No unknown barcodes."
        lines={unknown}
        errors={lineErrors}
        actions={
          open
            ? (l) => {
                const busy = busyLine === lineKey(l);
                const product = l.catalogue_product;
                return (
                  <>
                    {product ? (
                      <Button
                        size="sm"
                        disabled={busy}
                        aria-label={`Link barcode ${l.barcode} to ${product.name}`}
                        onClick={() => setConfirm({ kind: "link", line: l, product })}
                      >
                        {busy && link.isPending ? "Linking..." : `Link to ${product.name}`}
                      </Button>
                    ) : (
                      <Button
                        size="sm"
                        variant="outline"
                        disabled={busy}
                        aria-label={`Create a product for barcode ${l.barcode}`}
                        onClick={() => setCreating(l)}
                      >
                        {busy && link.isPending ? "Linking..." : "Create product"}
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="outline"
                      disabled={busy}
                      aria-label={`Drop barcode ${l.barcode}`}
                      onClick={() => setConfirm({ kind: "drop", line: l })}
                    >
                      Drop
                    </Button>
                  </>
                );
              }
            : undefined
        }
      />

      {confirm ? (
        <ConfirmDialog
          texts={confirmTexts(confirm)}
          danger={confirm.kind === "drop"}
          busy={busyLine !== null}
          onNo={() => setConfirm(null)}
          onYes={() => void onConfirmed()}
        />
      ) : null}
      {creating ? (
        <Suspense fallback={null}>
          <AddProductDialog initialBarcode={creating.barcode} onClose={() => void onCreateClosed(creating)} />
        </Suspense>
      ) : null}

      {confirmCancel ? (
        <Dialog
          onClose={() => setConfirmCancel(false)}
          title={`Cancel stock take #${session.number}?`}
          description="Nothing changes in the stock; the counts are kept in its report."
          size="sm"
          busy={cancel.isPending}
          footer={
            <>
              <Button variant="outline" onClick={() => setConfirmCancel(false)}>
                Keep it
              </Button>
              <Button variant="danger" onClick={() => void onCancel()} disabled={cancel.isPending}>
                Cancel stock take
              </Button>
            </>
          }
        />
      ) : null}
      {audit ? <AuditDialog product={audit} onClose={() => setAudit(null)} /> : null}
    </div>
  );
}

function ConfirmDialog({
  texts,
  danger,
  busy,
  onNo,
  onYes,
}: {
  texts: ReturnType<typeof confirmTexts>;
  danger: boolean;
  busy: boolean;
  onNo: () => void;
  onYes: () => void;
}) {
  return (
    <Dialog
      onClose={onNo}
      title={texts.title}
      description={texts.description}
      size="sm"
      busy={busy}
      footer={
        <>
          <Button variant="outline" onClick={onNo} disabled={busy}>
            {texts.no}
          </Button>
          <Button variant={danger ? "danger" : "primary"} onClick={onYes} disabled={busy}>
            {busy ? texts.busy : texts.yes}
          </Button>
        </>
      }
    />
  );
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-gray-300 bg-white p-2 dark:border-gray-700 dark:bg-gray-900">
      <dt className="text-sm">{label}</dt>
      <dd className="text-xl font-bold tabular-nums">{value}</dd>
    </div>
  );
}

interface LineListProps {
  title: string;
  empty: string;
  lines: ReviewLine[];
  /** The buttons of each line (none when the session is finished). */
  actions?: (line: ReviewLine) => ReactNode;
  /** Each line's last failure, by lineKey. */
  errors?: Record<string, string>;
}

function LineList({ title, empty, lines, actions, errors }: LineListProps) {
  const headingId = `list-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-1">
      <h2 id={headingId} className="text-lg font-semibold">
        {title} ({lines.length})
      </h2>
      {lines.length === 0 ? (
        <p className="text-sm">{empty}</p>
      ) : (
        <ul className="flex flex-col gap-1" aria-labelledby={headingId}>
          {lines.map((l) => (
            <li
              key={lineKey(l)}
              className="rounded border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-700 dark:bg-gray-900"
            >
              <span className="font-medium">{l.name ?? "Unknown barcode"}</span> <span className="font-mono">{l.barcode}</span>
              {l.status === "missing" ? ` · expected ${l.expected}${l.location ? ` in ${l.location}` : ""}` : null}
              {l.status === "misplaced"
                ? ` · belongs in ${l.location ?? "no location"}, found in ${l.found_in.filter(Boolean).join(", ")}`
                : null}
              {l.status === "unknown"
                ? ` · scanned ${l.counted}${l.found_in.filter(Boolean).length ? ` in ${l.found_in.filter(Boolean).join(", ")}` : ""}`
                : null}
              {l.status === "unknown" && l.catalogue_product ? ` · now in the catalogue as ${l.catalogue_product.name}` : null}
              {actions ? <span className="mt-2 flex flex-wrap gap-2">{actions(l)}</span> : null}
              {errors?.[lineKey(l)] ? (
                <span role="alert" className="mt-1 block text-red-700 dark:text-red-300">
                  {errors[lineKey(l)]}
                </span>
              ) : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
