import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { Customer, CustomerDetail } from "../../../../contract/counter";
import { permissionsFor, type Role } from "../../../../contract/permissions";
import { fill, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { CustomersView } from "./customers-view";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const ada: Customer = {
  id: 5,
  name: "Ada Park",
  email: "ada@example.com",
  phone: null,
  notes: null,
  created_at: "2026-03-01T10:00:00.000Z",
  erased_at: null,
  credit_balance: 1040,
};
const entry = (id: number, amount: number, balance: number, kind: "trade_in" | "order" | "adjustment", reason: string) => ({
  id,
  customer_id: 5,
  amount,
  kind,
  reason,
  trade_in_id: null,
  order_id: null,
  created_by: "sam",
  created_at: "2026-03-02T10:00:00.000Z",
  balance_after: balance,
});

async function serve(role: Role) {
  let detail: CustomerDetail = {
    customer: ada,
    trade_ins: [],
    orders: [{ id: 8, channel: "counter", external_id: "sale-1", status: "completed", total: 500, created_at: "2026-03-02T11:00:00.000Z" }],
    credit: {
      balance: 740,
      entries: [entry(2, -300, 740, "order", "Order counter sale-1"), entry(1, 1040, 1040, "trade_in", "Trade-in #41")],
    },
  };
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "sam", role, created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor(role)],
    "GET /api/customers": (req) => [200, req.query.get("q") === "zzz" ? [] : [ada]],
    "GET /api/customers/5": () => [200, detail],
    "POST /api/customers/5/credit": (req) => {
      const { amount, reason } = req.body as { amount: number; reason: string };
      const balance = detail.credit.balance + amount;
      detail = { ...detail, credit: { balance, entries: [entry(3, amount, balance, "adjustment", reason), ...detail.credit.entries] } };
      return [201, { entry: detail.credit.entries[0], balance }];
    },
    "POST /api/customers/5/erase": () => {
      detail = { ...detail, customer: { ...detail.customer, name: "", email: null, erased_at: "2026-03-03T10:00:00.000Z" } };
      return [200, { customer: detail.customer }];
    },
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderCustomers(customerId: number | undefined, opened: number[] = []) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <CustomersView customerId={customerId} onOpenCustomer={(id) => opened.push(id)} onBack={() => {}} />
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("Customers", () => {
  it("searches by name, email or phone, says when none matches, and opens a customer", async () => {
    await serve("inventory");
    const opened: number[] = [];
    const user = renderCustomers(undefined, opened);
    const search = await screen.findByLabelText("Search customers", undefined, SLOW);
    await user.click(await screen.findByRole("button", { name: /Ada Park/ }, SLOW));
    expect(opened).toEqual([5]);
    await fill(user, search, "zzz");
    expect(await screen.findByText("No customer matches.", undefined, SLOW)).toBeInTheDocument();
  });

  it("a customer's page: the balance, the ledger, the orders; an inventory user may not adjust", async () => {
    await serve("inventory");
    renderCustomers(5);
    expect(await screen.findByRole("heading", { name: "Ada Park", level: 1 }, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId("credit-balance")).toHaveTextContent("$7.40");
    const entries = screen.getAllByTestId("credit-entry");
    expect(entries[0]).toHaveTextContent("Order · Order counter sale-1");
    expect(entries[0]).toHaveTextContent("−$3.00 · balance $7.40");
    expect(within(screen.getByRole("list", { name: "Orders" })).getByText(/counter · sale-1/)).toBeInTheDocument();
    expect(screen.getByText("No trade-ins.")).toBeInTheDocument();
    expect(screen.queryByRole("form", { name: "Adjust store credit" })).toBeNull();
  });

  it("a manager adjusts the credit with a reason, and erases the customer after a confirmation saying what is kept", async () => {
    const seen = await serve("manager");
    const user = renderCustomers(5);
    await screen.findByRole("heading", { name: "Ada Park", level: 1 }, SLOW);
    await fill(user, screen.getByLabelText("Amount (+ or -)"), "-2.40");
    await user.click(screen.getByRole("button", { name: "Adjust credit" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("A reason is required");
    await fill(user, screen.getByLabelText("Reason"), "Price match");
    await user.click(screen.getByRole("button", { name: "Adjust credit" }));
    await waitFor(() => expect(screen.getByTestId("credit-balance")).toHaveTextContent("$5.00"), SLOW);
    expect(seen.find((r) => r.method === "POST" && r.path === "/api/customers/5/credit")?.body).toEqual({
      amount: -240,
      reason: "Price match",
    });

    await user.click(screen.getByRole("button", { name: "Erase customer" }));
    const dialog = screen.getByRole("dialog", { name: "Erase Ada Park?" });
    expect(dialog).toHaveTextContent("Their trade-ins, orders and store credit ledger are kept, with their sums, without the person.");
    await user.click(within(dialog).getByRole("button", { name: "Erase customer" }));
    expect(await screen.findByRole("heading", { name: "Erased customer", level: 1 }, SLOW)).toBeInTheDocument();
    expect(screen.getByTestId("credit-balance")).toHaveTextContent("$5.00");
  });
});
