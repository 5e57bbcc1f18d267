import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it } from "vitest";
import type { BuylistAnswer, BuylistItem } from "../../../../contract/buylist";
import { fill, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { ThemeProvider } from "../../theme";
import { BuylistPage } from "./buylist-page";

let server: TestServer | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const dragon: BuylistItem = {
  product_id: 1,
  product_name: "Ruby Dragon",
  vendor: "Wizards",
  set_name: "Base Set",
  card_number: "4",
  offers: [
    { condition: "Near Mint", cash_cents: 500, credit_cents: 650 },
    { condition: "Lightly Played", cash_cents: 400, credit_cents: 520 },
  ],
  max_quantity: 3,
};

async function serve(submit: () => [number, unknown] = () => [201, { submission: receipt }]) {
  const app = routes({
    "GET /api/buylist": (req) => [
      200,
      { items: req.query.get("q") === "zzz" ? [] : [dragon], has_more: false, currency: "USD" } satisfies BuylistAnswer,
    ],
    "POST /api/buylist/submissions": submit,
  });
  server = await startTestServer(app.handle);
  return app.seen;
}
const receipt = { reference: 41, status: "pending", units: 2, cash_cents: 800, credit_cents: 1040 };

function renderPage() {
  render(
    <ThemeProvider>
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <BuylistPage />
      </QueryClientProvider>
    </ThemeProvider>,
  );
  return userEvent.setup();
}

describe("the public buylist page", () => {
  it("lists offers, builds a list within what the shop takes, checks the fields, sends it and confirms with the reference", async () => {
    const seen = await serve();
    const user = renderPage();
    const row = await screen.findByTestId("buylist-card", undefined, SLOW);
    expect(row).toHaveTextContent("Lightly Played: $5.20 credit or $4.00 cash");
    expect(row).toHaveTextContent("Up to 3 per list");

    await user.selectOptions(within(row).getByLabelText("Condition"), "Lightly Played");
    await fill(user, within(row).getByLabelText("Quantity"), "4");
    await user.click(within(row).getByRole("button", { name: "Add Ruby Dragon to my list" }));
    expect(within(row).getByRole("alert")).toHaveTextContent("We take at most 3 more of this card");
    await fill(user, within(row).getByLabelText("Quantity"), "2");
    await user.click(within(row).getByRole("button", { name: "Add Ruby Dragon to my list" }));
    expect(screen.getByTestId("buylist-line")).toHaveTextContent("Lightly Played · $5.20 credit or $4.00 cash each");
    expect(screen.getByText("2 cards: $10.40 in store credit or $8.00 in cash")).toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Send my list" }));
    expect(screen.getByText("Name is required")).toBeInTheDocument();
    expect(screen.getByLabelText("Email")).toHaveAttribute("aria-invalid", "true");
    expect(seen.some((r) => r.method === "POST")).toBe(false);

    await fill(user, screen.getByLabelText("Name"), "Sam Seller");
    await fill(user, screen.getByLabelText("Email"), "sam@example.com");
    await user.click(screen.getByRole("radio", { name: "Cash" }));
    await user.click(screen.getByRole("button", { name: "Send my list" }));
    const done = await screen.findByRole("heading", { name: "Thank you: we have your list" }, SLOW);
    await waitFor(() => expect(done).toHaveFocus());
    expect(screen.getByText(/Your reference is/)).toHaveTextContent("Your reference is #41.");
    expect(seen.find((r) => r.method === "POST")?.body).toEqual({
      name: "Sam Seller",
      email: "sam@example.com",
      phone: "",
      payout: "cash",
      note: "",
      website: "",
      lines: [{ product_id: 1, condition: "Lightly Played", quantity: 2 }],
    });
  });

  it("says when nothing matches, and what the server refused", async () => {
    await serve(() => [429, { error: "Too many submissions from this address. Please try again later." }]);
    const user = renderPage();
    const search = await screen.findByLabelText("Search cards by name or set", undefined, SLOW);
    await screen.findByTestId("buylist-card", undefined, SLOW);
    await user.click(screen.getByRole("button", { name: "Add Ruby Dragon to my list" }));
    await fill(user, search, "zzz");
    expect(await screen.findByText('No cards we are buying match "zzz".', undefined, SLOW)).toBeInTheDocument();
    await fill(user, screen.getByLabelText("Name"), "Sam Seller");
    await fill(user, screen.getByLabelText("Email"), "sam@example.com");
    await user.click(screen.getByRole("button", { name: "Send my list" }));
    expect(await screen.findByText("Too many submissions from this address. Please try again later.", undefined, SLOW)).toBeInTheDocument();
    // The list stays to send later.
    expect(screen.getByTestId("buylist-line")).toHaveTextContent("Ruby Dragon");
  });
});
