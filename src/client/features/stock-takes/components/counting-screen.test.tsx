import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { permissionsFor } from "../../../../contract/permissions";
import type { ScanAnswer, ScanInput, ScansBody, StockTake, StockTakeReview } from "../../../../contract/stock-takes";
import { publishStockTakeUpdate } from "../../../lib/stock-take-updates";
import { routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { readQueue } from "../scan-queue";
import { StockTakesView } from "./stock-takes-view";

let server: TestServer | null = null;
beforeEach(() => localStorage.clear());
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
  localStorage.clear();
});

const USER_ID = 9;
const session: StockTake = {
  id: 7,
  number: 3,
  status: "counting",
  scope: { location_ids: [1] },
  started_by: "sam",
  started_at: "2026-03-14T08:00:00.000Z",
  finished_at: null,
  approved_by: null,
  scans: 0,
};
const products: Record<string, { id: number; name: string }> = { "2000000000017": { id: 11, name: "Charizard" } };

/** A stand-in for the stock takes' API: counts per barcode, answers as the server does; `down` answers 503. */
function serve() {
  const counts = new Map<string, number>();
  let recorded = 0;
  const state: { down: false | "busy" | "failing" } = { down: false };
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: USER_ID, username: "sam", role: "inventory", created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor("inventory")],
    "GET /api/stock-takes/7": () => [200, { stock_take: session }],
    "GET /api/locations": () => [200, [{ id: 1, name: "Case A", created_at: "2026-01-01T00:00:00.000Z" }]],
    "GET /api/stock-takes/7/review": () => {
      const review: StockTakeReview = {
        stock_take: session,
        lines: [],
        locations: [],
        totals: { lines: 0, difference: 0, value_at_cost: 0, value_at_price: 0 },
      };
      return [200, review];
    },
    "POST /api/stock-takes/7/scans": (req) => {
      if (state.down) return [state.down === "busy" ? 429 : 503, { error: "Service unavailable" }];
      const body = req.body as ScansBody;
      const scans = body.scans.map((s: ScanInput): ScanAnswer => {
        const before = counts.get(s.barcode) ?? 0;
        const quantity = s.quantity ?? 1;
        counts.set(s.barcode, before + quantity);
        return answer(s, before, quantity);
      });
      recorded += scans.length;
      return [200, { scans, stock_take: { ...session, scans: recorded } }];
    },
  });
  return { seen: app.seen, state, handle: app.handle };
}

/** The server's answer to a scan of `s`, counted `before` it. */
function answer(s: ScanInput, before: number, quantity: number): ScanAnswer {
  const product = products[s.barcode];
  return {
    client_scan_id: s.client_scan_id,
    result: !product ? "unknown" : before > 0 ? "already_counted" : "found",
    product_id: product?.id ?? null,
    product_name: product?.name ?? null,
    count: before,
    counted: before + quantity,
    replayed: false,
    scan: {
      id: 1,
      session_id: 7,
      barcode: s.barcode,
      product_id: product?.id ?? null,
      location_id: s.location_id ?? null,
      quantity,
      device: null,
      user: "sam",
      scanned_at: "2026-03-14T08:00:00.000Z",
      client_scan_id: s.client_scan_id,
    },
  };
}

async function renderScreen() {
  const fake = serve();
  server = await startTestServer(fake.handle);
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <StockTakesView stockTakeId={7} onCount={() => {}} onReview={() => {}} onList={() => {}} />
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  const field = await screen.findByLabelText("Scan or type a barcode", undefined, SLOW);
  await waitFor(() => expect(field).toHaveFocus(), SLOW);
  return { ...fake, user: userEvent.setup(), field };
}

const sentScans = (seen: { method: string; path: string; body: unknown }[]) =>
  seen.filter((r) => r.method === "POST" && r.path === "/api/stock-takes/7/scans").flatMap((r) => (r.body as ScansBody).scans);

describe("CountingScreen", () => {
  it("counts scan after scan from the focused field, says each answer, and asks before counting a barcode again", async () => {
    const { seen, user, field } = await renderScreen();
    expect(screen.getByLabelText("Counting in")).toHaveValue("1");
    await user.type(field, "2000000000017{Enter}");
    // The aria-live region that says each answer.
    const status = within(screen.getByTestId("scan-result")).getByRole("status");
    await waitFor(() => expect(status).toHaveTextContent("Found: Charizard. Counted 1."), SLOW);
    expect(field).toHaveFocus();
    // Again: a question, nothing sent; Escape says no.
    await user.type(field, "2000000000017{Enter}");
    expect(status).toHaveTextContent("Already counted 1: 2000000000017. Add one more?");
    await user.keyboard("{Escape}");
    expect(status).toHaveTextContent("Not counted again: 2000000000017.");
    // Again, and Enter on the empty field says yes.
    await user.type(field, "2000000000017{Enter}");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(status).toHaveTextContent("Already counted 1: Charizard. Counted 2 now."), SLOW);
    await user.type(field, "999{Enter}");
    await waitFor(() => expect(status).toHaveTextContent("Unknown barcode 999. Recorded 1."), SLOW);
    const scans = sentScans(seen);
    expect(scans.map((s) => [s.barcode, s.quantity, s.location_id])).toEqual([
      ["2000000000017", 1, 1],
      ["2000000000017", 1, 1],
      ["999", 1, 1],
    ]);
    expect(new Set(scans.map((s) => s.client_scan_id)).size).toBe(3);
  });

  it('reads a typed stack: "x 24" before a scan, after it (Enter again), or with its barcode', async () => {
    const { seen, user, field } = await renderScreen();
    await user.type(field, "x 24{Enter}");
    expect(screen.getByTestId("pending-count")).toHaveTextContent("Next scan counts 24");
    await user.type(field, "555{Enter}");
    await waitFor(() => expect(screen.getByTestId("scan-result")).toHaveTextContent("Unknown barcode 555. Recorded 24."), SLOW);
    await user.type(field, "666 x 3{Enter}");
    await waitFor(() => expect(screen.getByTestId("scan-result")).toHaveTextContent("Unknown barcode 666. Recorded 3."), SLOW);
    // After a scan: "x 5" and Enter again make the scan just made count 5 (4 more).
    await user.type(field, "x 5{Enter}");
    await user.keyboard("{Enter}");
    await waitFor(() => expect(screen.getByTestId("scan-result")).toHaveTextContent("Unknown barcode 666. Recorded 5."), SLOW);
    expect(sentScans(seen).map((s) => [s.barcode, s.quantity])).toEqual([
      ["555", 24],
      ["666", 3],
      ["666", 2],
    ]);
  });

  it("keeps a scan the server could not take on this device, shows it waiting, and sends it with the same id once it answers", async () => {
    const { seen, state, user, field } = await renderScreen();
    state.down = "failing";
    await user.type(field, "777{Enter}");
    await waitFor(() => expect(screen.getByTestId("waiting-scans")).toHaveTextContent("1 scan waiting to be sent."), SLOW);
    // Too many requests: kept too.
    state.down = "busy";
    await user.click(screen.getByRole("button", { name: "Send now" }));
    await waitFor(() => expect(seen.filter((r) => r.path === "/api/stock-takes/7/scans").length).toBe(2), SLOW);
    expect(screen.getByTestId("waiting-scans")).toHaveTextContent("1 scan waiting to be sent.");
    const waiting = readQueue(USER_ID, 7);
    expect(waiting.map((s) => s.barcode)).toEqual(["777"]);
    state.down = false;
    await user.click(screen.getByRole("button", { name: "Send now" }));
    await waitFor(() => expect(screen.getByTestId("waiting-scans")).toHaveTextContent("Every scan is sent."), SLOW);
    expect(readQueue(USER_ID, 7)).toEqual([]);
    const ids = sentScans(seen).map((s) => s.client_scan_id);
    expect(ids.at(-1)).toBe(waiting[0]?.client_scan_id);
  });

  it("follows another device's scans live: the running totals patched from the event, without asking for the review again", async () => {
    const { seen, user, field } = await renderScreen();
    await waitFor(
      () => expect(screen.getByTestId("running-totals")).toHaveTextContent("0 products, 0 items · 0 scans on all devices"),
      SLOW,
    );
    const reviews = () => seen.filter((r) => r.path === "/api/stock-takes/7/review").length;
    const before = reviews();
    const elsewhere = answer({ client_scan_id: "other-device-1", barcode: "2000000000017", quantity: 4 }, 0, 4);
    act(() =>
      publishStockTakeUpdate({
        type: "stock_take_scanned",
        stock_take: { ...session, scans: 1 },
        scans: [elsewhere],
        timestamp: "2026-03-14T08:00:00.000Z",
        userId: 2,
      }),
    );
    await waitFor(() => expect(screen.getByTestId("running-totals")).toHaveTextContent("1 product, 4 items · 1 scan on all devices"), SLOW);
    expect(screen.getByTestId("counted-line")).toHaveTextContent("Charizard20000000000174");
    expect(reviews()).toBe(before);
    // Counted elsewhere: this device asks before counting it again.
    await user.type(field, "2000000000017{Enter}");
    expect(screen.getByTestId("scan-result")).toHaveTextContent("Already counted 4: 2000000000017. Add one more?");
  });
});
