import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ImportSummary, ImportUndoResult } from "../../../../contract/imports";
import { ImportOutcome } from "./import-outcome";
import { localTime } from "./import-summary-item";
import { RecentImports } from "./recent-imports";
import { UNDO_EXPLAINED } from "./undo-import";

const summary = (over: Partial<ImportSummary>): ImportSummary => ({
  id: "11111111-1111-4111-8111-111111111111",
  status: "done",
  user_id: 2,
  user_name: "kim",
  created_at: "2026-03-14T15:04:00.000Z",
  finished_at: "2026-03-14T15:05:00.000Z",
  rows: 12,
  processed: 12,
  created: 3,
  updated: 7,
  skipped: 1,
  error_count: 1,
  undone_at: null,
  undone_by: null,
  ...over,
});

const done = summary({});
const running = summary({
  id: "22222222-2222-4222-8222-222222222222",
  status: "committing",
  rows: 5000,
  processed: 1200,
  user_name: "sam",
});
const failed = summary({ id: "33333333-3333-4333-8333-333333333333", status: "failed", created: 0, updated: 0, skipped: 0 });
const undone = summary({
  id: "44444444-4444-4444-8444-444444444444",
  undone_at: "2026-03-15T09:00:00.000Z",
  undone_by: "lee",
});

type Answer = { status: number; body: unknown } | Promise<{ status: number; body: unknown }>;

/** fetch as a small server: each "METHOD path" answers from its queue (the last answer repeats); requests are kept. */
function stubServer(routes: Record<string, Answer[]>) {
  const requests: string[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const route = `${init?.method ?? "GET"} ${url.split("?")[0]}`;
      requests.push(`${init?.method ?? "GET"} ${url}`);
      const queue = routes[route];
      if (!queue?.length) return new Response(JSON.stringify({ error: `no route ${route}` }), { status: 404 });
      const answer = await (queue.length > 1 ? queue.shift() : queue[0]);
      return new Response(JSON.stringify(answer?.body), { status: answer?.status ?? 500, headers: { "Content-Type": "application/json" } });
    }),
  );
  return requests;
}
afterEach(() => vi.unstubAllGlobals());

function renderWithQueries(ui: React.ReactElement) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(<QueryClientProvider client={queryClient}>{ui}</QueryClientProvider>);
  return userEvent.setup();
}

async function openRecentImports(user: ReturnType<typeof userEvent.setup>) {
  const toggle = screen.getByRole("button", { name: "Recent imports" });
  expect(toggle).toHaveAttribute("aria-expanded", "false");
  await user.click(toggle);
  expect(toggle).toHaveAttribute("aria-expanded", "true");
}

const rowOf = (name: RegExp) => screen.getByRole("listitem", { name });

describe("RecentImports", () => {
  it("asks for nothing until opened, then lists when, who, status and counts, with Undo only on a done import not undone", async () => {
    const requests = stubServer({ "GET /api/imports": [{ status: 200, body: [running, done, failed, undone] }] });
    const user = renderWithQueries(<RecentImports />);
    expect(requests).toEqual([]);
    await openRecentImports(user);

    const list = await screen.findByRole("list", { name: "Recent imports" });
    expect(requests).toEqual(["GET /api/imports?limit=20&offset=0"]);
    const rows = within(list).getAllByRole("listitem");
    expect(rows).toHaveLength(4);

    expect(rows[0]).toHaveTextContent(`${localTime(running.created_at)} by sam`);
    expect(within(rows[0] as HTMLElement).getByTestId("import-status")).toHaveTextContent("In progress: 1,200 of 5,000 rows");

    const first = rows[1] as HTMLElement;
    expect(within(first).getByText(localTime(done.created_at))).toHaveAttribute("dateTime", done.created_at);
    expect(within(first).getByTestId("import-status")).toHaveTextContent("Done");
    expect(within(first).getByTestId("import-row-created")).toHaveTextContent("3");
    expect(within(first).getByTestId("import-row-updated")).toHaveTextContent("7");
    expect(within(first).getByTestId("import-row-skipped")).toHaveTextContent("1");
    expect(within(first).getByTestId("import-row-errors")).toHaveTextContent("1");

    expect(within(rows[2] as HTMLElement).getByTestId("import-status")).toHaveTextContent("Failed");
    expect(within(rows[3] as HTMLElement).getByTestId("import-status")).toHaveTextContent("Undone");
    expect(rows[3]).toHaveTextContent(`Undone by lee on ${localTime("2026-03-15T09:00:00.000Z")}`);

    const undoButtons = within(list).getAllByRole("button", { name: /^Undo/ });
    expect(undoButtons).toHaveLength(1);
    expect(undoButtons[0]).toHaveAccessibleName(`Undo import from ${localTime(done.created_at)} by kim`);
    expect(within(first).getByRole("button", { name: /^Undo/ })).toBe(undoButtons[0]);
  });

  it("says 'No imports yet' when there are none", async () => {
    stubServer({ "GET /api/imports": [{ status: 200, body: [] }] });
    const user = renderWithQueries(<RecentImports />);
    await openRecentImports(user);
    expect(await screen.findByText("No imports yet")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: "Recent imports" })).toBeNull();
  });

  it("shows the server's error when the list cannot load, and Try Again loads it", async () => {
    const requests = stubServer({
      "GET /api/imports": [
        { status: 500, body: { error: "Database unavailable" } },
        { status: 200, body: [done] },
      ],
    });
    const user = renderWithQueries(<RecentImports />);
    await openRecentImports(user);
    expect(await screen.findByRole("alert")).toHaveTextContent("Failed to load imports: Database unavailable");
    await user.click(screen.getByRole("button", { name: "Try Again" }));
    expect(await screen.findByRole("list", { name: "Recent imports" })).toBeInTheDocument();
    expect(screen.queryByRole("alert")).toBeNull();
    expect(requests).toHaveLength(2);
  });
});

describe("Undo an import", () => {
  const result: ImportUndoResult = {
    import: { ...done, undone_at: "2026-03-16T10:00:00.000Z", undone_by: "pat" },
    reverted: 3,
    disabled: 1,
    not_reverted: [
      {
        product_id: 8,
        barcode: "0123456789",
        product_name: "Prizm Hobby Box",
        reason: "Changed since the import (quantity_on_hand): left as it is",
      },
      { product_id: null, barcode: "GONE-1", product_name: "Topps Chrome", reason: "No longer exists" },
    ],
  };

  it("asks first (Keep import sends nothing), then undoes, busy while it runs, and shows what it did and what it left", async () => {
    let answerUndo: (a: { status: number; body: unknown }) => void = () => {};
    const undoAnswer = new Promise<{ status: number; body: unknown }>((resolve) => {
      answerUndo = resolve;
    });
    const requests = stubServer({
      "GET /api/imports": [
        { status: 200, body: [done] },
        { status: 200, body: [result.import] },
      ],
      [`POST /api/imports/${done.id}/undo`]: [undoAnswer],
    });
    const onUndone = vi.fn();
    const user = renderWithQueries(<RecentImports onUndone={onUndone} />);
    await openRecentImports(user);
    const row = await screen.findByRole("listitem", { name: /by kim/ });

    await user.click(within(row).getByRole("button", { name: /^Undo/ }));
    const confirm = within(row).getByRole("group", { name: "Undo this import?" });
    expect(confirm).toHaveAccessibleDescription(UNDO_EXPLAINED);
    expect(within(confirm).getByRole("button", { name: "Keep import" })).toHaveFocus();
    await user.click(within(confirm).getByRole("button", { name: "Keep import" }));
    expect(within(row).queryByRole("group")).toBeNull();
    expect(within(row).getByRole("button", { name: /^Undo/ })).toHaveFocus();
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual([]);

    await user.click(within(row).getByRole("button", { name: /^Undo/ }));
    await user.click(within(row).getByRole("button", { name: "Yes, undo import" }));
    const busy = await within(row).findByRole("button", { name: "Undoing..." });
    expect(busy).toBeDisabled();
    expect(within(row).getByRole("button", { name: "Keep import" })).toBeDisabled();
    expect(requests.filter((r) => r.startsWith("POST"))).toEqual([`POST /api/imports/${done.id}/undo`]);

    answerUndo({ status: 200, body: result });
    const outcome = await within(rowOf(/by kim/)).findByTestId("undo-result");
    expect(within(outcome).getByRole("status")).toHaveTextContent("Reverted 3 products, disabled 1");
    expect(outcome).toHaveFocus();
    const left = within(outcome).getByRole("list", { name: "Not reverted (2)" });
    const items = within(left).getAllByRole("listitem");
    expect(items[0]).toHaveTextContent("Prizm Hobby Box (0123456789): Changed since the import (quantity_on_hand): left as it is");
    expect(items[1]).toHaveTextContent("Topps Chrome (GONE-1): No longer exists");
    expect(onUndone).toHaveBeenCalledOnce();

    // The import now shows as undone, with no Undo left.
    expect(within(rowOf(/by kim/)).getByTestId("import-status")).toHaveTextContent("Undone");
    expect(within(rowOf(/by kim/)).queryByRole("button", { name: /^Undo/ })).toBeNull();
    await vi.waitFor(() => expect(requests.filter((r) => r.startsWith("GET"))).toHaveLength(2));
  });

  it("shows the server's error when the undo is refused", async () => {
    stubServer({
      "GET /api/imports": [{ status: 200, body: [done] }],
      [`POST /api/imports/${done.id}/undo`]: [{ status: 409, body: { error: "This import is already undone" } }],
    });
    const onUndone = vi.fn();
    const user = renderWithQueries(<RecentImports onUndone={onUndone} />);
    await openRecentImports(user);
    const row = await screen.findByRole("listitem", { name: /by kim/ });
    await user.click(within(row).getByRole("button", { name: /^Undo/ }));
    await user.click(within(row).getByRole("button", { name: "Yes, undo import" }));
    expect(await within(row).findByRole("alert")).toHaveTextContent("Undo failed: This import is already undone");
    expect(within(row).queryByTestId("undo-result")).toBeNull();
    expect(onUndone).not.toHaveBeenCalled();
  });

  it("after an import, the outcome offers 'Undo this import' for its import_id", async () => {
    const requests = stubServer({ [`POST /api/imports/${done.id}/undo`]: [{ status: 200, body: { ...result, not_reverted: [] } }] });
    const user = renderWithQueries(
      <ImportOutcome result={{ created: 3, updated: 7, skipped: 1, errors: [], import_id: done.id }} onAgain={() => {}} canUndo />,
    );
    await user.click(screen.getByRole("button", { name: "Undo this import" }));
    await user.click(screen.getByRole("button", { name: "Yes, undo import" }));
    expect(await screen.findByText("Reverted 3 products, disabled 1")).toBeInTheDocument();
    expect(screen.queryByRole("list", { name: /Not reverted/ })).toBeNull();
    expect(screen.queryByRole("button", { name: "Undo this import" })).toBeNull();
    expect(requests).toEqual([`POST /api/imports/${done.id}/undo`]);
  });

  it("offers no undo without an import_id or without the permission", () => {
    renderWithQueries(<ImportOutcome result={{ created: 1, updated: 0, skipped: 0, errors: [] }} onAgain={() => {}} canUndo />);
    expect(screen.queryByRole("button", { name: "Undo this import" })).toBeNull();
  });
});
