import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import type { BuySettingsAnswer, BuySettingsBody } from "../../../../contract/counter";
import { permissionsFor, type Role } from "../../../../contract/permissions";
import { fill, routes, SLOW } from "../../../test/price-fakes";
import { fakeProduct } from "../../../test/product-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { AuthProvider } from "../../auth";
import { ProductStoreProvider } from "../../products";
import { BuySettingsDialog, PERCENT_ERROR } from "./buy-settings";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const ruby = fakeProduct(1, 1, { product_name: "Ruby Dragon" });
const opal = fakeProduct(2, 2, { product_name: "Opal Knight" });
const blue = fakeProduct(3, 3, { product_name: "Blue Wisp" });

const ANSWER: BuySettingsAnswer = {
  settings: {
    cash_percent: 50,
    credit_percent: 65,
    overrides: [{ vendor: "Wizards", set_name: null, cash_percent: 55, credit_percent: 70 }],
    hotlist: [1],
    hotlist_cash_percent: 60,
    hotlist_credit_percent: 80,
    darklist: [2],
  },
  limits: [{ product_id: 1, buy_limit: 4 }],
};

async function serve(role: Role) {
  const app = routes({
    "GET /api/auth/me": () => [200, { user: { id: 9, username: "sam", role, created_at: "2026-01-01T00:00:00.000Z" } }],
    "GET /api/auth/verify-permissions": () => [200, permissionsFor(role)],
    "GET /api/products": () => [200, [ruby, opal, blue]],
    "GET /api/buy-settings": () => [200, ANSWER],
    "PUT /api/buy-settings": (req) => [200, { settings: req.body, limits: ANSWER.limits }],
    "PUT /api/buy-settings/limits/1": (req) => [200, { product_id: 1, ...(req.body as object) }],
    "PUT /api/buy-settings/limits/3": (req) => [200, { product_id: 3, ...(req.body as object) }],
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderDialog(closed: string[] = []) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <AuthProvider>
        <ProductStoreProvider>
          <BuySettingsDialog onClose={() => closed.push("closed")} />
        </ProductStoreProvider>
      </AuthProvider>
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("Buy settings", () => {
  it("shows an inventory user the settings read-only: percents, overrides, hotlist, darklist and limits by name, no Save", async () => {
    await serve("inventory");
    renderDialog();
    expect(await screen.findByText(/Only managers change these/, undefined, SLOW)).toBeInTheDocument();
    expect(await screen.findByLabelText("Cash %", undefined, SLOW)).toHaveValue("50");
    expect(screen.getByLabelText("Cash %")).toHaveAttribute("readonly");
    expect(screen.getByLabelText("Credit %")).toHaveValue("65");
    expect(screen.getByLabelText("Vendor of override 1")).toHaveValue("Wizards");
    expect(await within(screen.getByRole("list", { name: "Hotlist" })).findByText("Ruby Dragon", undefined, SLOW)).toBeInTheDocument();
    expect(within(screen.getByRole("list", { name: "Darklist" })).getByText("Opal Knight")).toBeInTheDocument();
    expect(screen.getByLabelText("Buy limit of Ruby Dragon")).toHaveValue("4");
    expect(screen.queryByRole("button", { name: "Save buy settings" })).toBeNull();
    expect(screen.queryByLabelText("Add a card to the darklist")).toBeNull();
  });

  it("lets a manager change percents, add to the darklist and a buy limit, remove one, and saves them through the API", async () => {
    const seen = await serve("manager");
    const closed: string[] = [];
    const user = renderDialog(closed);
    await screen.findByRole("button", { name: "Save buy settings" }, SLOW);
    const cash = screen.getByLabelText("Cash %");
    await fill(user, cash, "300");
    await user.click(screen.getByRole("button", { name: "Save buy settings" }));
    expect(await screen.findByText(PERCENT_ERROR)).toBeInTheDocument();
    expect(cash).toHaveAttribute("aria-invalid", "true");
    expect(seen.some((r) => r.method === "PUT")).toBe(false);

    await fill(user, cash, "45");
    await fill(user, screen.getByLabelText("Add a card to the darklist"), "blue");
    await user.click(await screen.findByRole("button", { name: "Blue Wisp" }, SLOW));
    expect(within(screen.getByRole("list", { name: "Darklist" })).getByText("Blue Wisp")).toBeInTheDocument();
    await fill(user, screen.getByLabelText("Add a buy limit for a card"), "wisp");
    await user.click(await screen.findByRole("button", { name: "Blue Wisp" }, SLOW));
    await fill(user, screen.getByLabelText("Buy limit of Blue Wisp"), "6");
    await user.click(screen.getByRole("button", { name: "Remove the buy limit of Ruby Dragon" }));
    await user.click(screen.getByRole("button", { name: "Save buy settings" }));

    await waitFor(() => expect(closed).toEqual(["closed"]), SLOW);
    const put = seen.find((r) => r.method === "PUT" && r.path === "/api/buy-settings")?.body as BuySettingsBody;
    expect(put).toMatchObject({ cash_percent: 45, credit_percent: 65, hotlist: [1], darklist: [2, 3] });
    expect(put.overrides).toEqual([{ vendor: "Wizards", set_name: null, cash_percent: 55, credit_percent: 70 }]);
    const limits = seen.filter((r) => r.path.startsWith("/api/buy-settings/limits/")).map((r) => [r.path, r.body]);
    expect(limits).toEqual([
      ["/api/buy-settings/limits/3", { buy_limit: 6 }],
      ["/api/buy-settings/limits/1", { buy_limit: null }],
    ]);
    expect(await screen.findByText("Buy settings saved", undefined, SLOW)).toBeInTheDocument();
  });
});
