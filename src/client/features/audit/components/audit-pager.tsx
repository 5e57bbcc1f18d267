import { ChevronLeft, ChevronRight, Download } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { failureText } from "../../notifications";
import { type AuditTab, exportAudit } from "../audit-export";
import { AUDIT_PAGE, type AuditFilters } from "../audit-filters";

/** Newer/Older through any number of entries (offset paging), with the entries shown. */
export function Pager({ page, shown, more, onPage }: { page: number; shown: number; more: boolean; onPage: (page: number) => void }) {
  if (page === 0 && !more) return null;
  const first = page * AUDIT_PAGE + 1;
  return (
    <nav aria-label="Audit pages" className="flex flex-wrap items-center justify-between gap-2 pt-3">
      <Button variant="outline" size="sm" disabled={page === 0} onClick={() => onPage(page - 1)}>
        <ChevronLeft aria-hidden="true" className="h-4 w-4" />
        Newer
      </Button>
      <p className="text-sm" aria-live="polite" data-testid="audit-range">
        {shown === 0 ? "No more entries" : `Entries ${first.toLocaleString("en-US")}–${(first + shown - 1).toLocaleString("en-US")}`}
      </p>
      <Button variant="outline" size="sm" disabled={!more} onClick={() => onPage(page + 1)}>
        Older
        <ChevronRight aria-hidden="true" className="h-4 w-4" />
      </Button>
    </nav>
  );
}

/** 'Export CSV': every entry the filters select on this tab, as one file. */
export function ExportButton({ tab, filters, productId }: { tab: AuditTab; filters: AuditFilters; productId?: number }) {
  const [state, setState] = useState<{ busy: boolean; count: number; error: string | null }>({ busy: false, count: 0, error: null });
  async function run() {
    setState({ busy: true, count: 0, error: null });
    try {
      const count = await exportAudit(tab, filters, productId, (n) => setState((s) => ({ ...s, count: n })));
      setState({ busy: false, count, error: null });
    } catch (err) {
      setState({ busy: false, count: 0, error: failureText("Export failed", err) });
    }
  }
  return (
    <div className="mb-2 flex flex-wrap items-center justify-end gap-2">
      {state.busy ? (
        <span role="status" className="text-sm">
          Exporting... {state.count.toLocaleString("en-US")} entries
        </span>
      ) : null}
      {state.error ? (
        <span role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          {state.error}
        </span>
      ) : null}
      <Button variant="outline" size="sm" disabled={state.busy} onClick={() => void run()}>
        <Download aria-hidden="true" className="h-4 w-4" />
        Export CSV
      </Button>
    </div>
  );
}
