import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { Toaster, toast } from "sonner";
import { afterEach, describe, expect, it } from "vitest";
import {
  DEFAULT_PRICING_RULES,
  PRICING_RULE_MESSAGES,
  type PricingRules,
  ROUNDING_LABELS,
  RULE_ORDER,
} from "../../../../contract/pricing-rules";
import { fill, routes, SLOW } from "../../../test/price-fakes";
import { startTestServer, type TestServer } from "../../../test/test-server";
import { RulesSection } from "./rules-section";

let server: TestServer | null = null;
afterEach(async () => {
  toast.dismiss();
  await server?.close();
  server = null;
});

const saved: PricingRules = { ...DEFAULT_PRICING_RULES, overrides: [{ match: { set_name: "Base Set" }, percent: 120 }] };

async function serve() {
  let rules = saved;
  const app = routes({
    "GET /api/prices/rules": () => [200, rules],
    "PUT /api/prices/rules": (req) => {
      rules = req.body as PricingRules;
      return [200, rules];
    },
  });
  server = await startTestServer(app.handle);
  return app.seen;
}

function renderSection() {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RulesSection />
      <Toaster />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("RulesSection", () => {
  it("lists the rules in the order they apply, numbered, each in words", async () => {
    await serve();
    renderSection();
    const order = screen.getByRole("list", { name: "The order they apply in" });
    expect(order.tagName).toBe("OL");
    expect(
      within(order)
        .getAllByRole("listitem")
        .map((li) => li.textContent),
    ).toEqual(RULE_ORDER.map((r) => `${r.label}: ${r.description}`));
    // The form fills in from the saved rules.
    expect(await screen.findByLabelText("Lightly Played %", undefined, SLOW)).toHaveValue("90");
    expect(screen.getByLabelText("Override 1 set")).toHaveValue("Base Set");
  });

  it("saves the rules as set: overrides added and removed, floor as an amount, rounding by its label", async () => {
    const seen = await serve();
    const user = renderSection();
    await fill(user, await screen.findByLabelText("Damaged %", undefined, SLOW), "35");
    await user.click(screen.getByRole("button", { name: "Add override" }));
    await fill(user, screen.getByLabelText("Override 2 vendor"), "Wizards of the Coast");
    await fill(user, screen.getByLabelText("Override 2 %"), "110");
    await user.click(screen.getByRole("button", { name: "Remove override 1" }));
    await fill(user, screen.getByLabelText("Floor"), "0.49");
    await fill(user, screen.getByLabelText("Minimum margin %"), "15");
    await user.selectOptions(screen.getByLabelText("Rounding"), ROUNDING_LABELS["49_99"]);
    await fill(user, screen.getByLabelText("Auto-apply under %"), "5");
    await user.click(screen.getByRole("button", { name: "Save rules" }));

    expect(await screen.findByText("Rules saved: the proposals were made again with them", undefined, SLOW)).toBeInTheDocument();
    expect(seen.filter((r) => r.method === "PUT").map((r) => r.body)).toEqual([
      {
        ...DEFAULT_PRICING_RULES,
        condition_percent: { ...DEFAULT_PRICING_RULES.condition_percent, Damaged: 35 },
        overrides: [{ match: { vendor: "Wizards of the Coast" }, percent: 110 }],
        floor_cents: 49,
        min_margin_percent: 15,
        rounding: "49_99",
        auto_apply_under_percent: 5,
      },
    ]);
    // The form starts again from what was saved.
    expect(screen.getByLabelText("Override 1 vendor")).toHaveValue("Wizards of the Coast");
    expect(screen.getByLabelText("Floor")).toHaveValue("0.49");
  });

  it("says what is wrong on the field, and saves nothing", async () => {
    const seen = await serve();
    const user = renderSection();
    await user.clear(await screen.findByLabelText("Override 1 set", undefined, SLOW));
    await fill(user, screen.getByLabelText("Floor"), "free");
    await fill(user, screen.getByLabelText("Big move %"), "10");
    await fill(user, screen.getByLabelText("Auto-apply under %"), "20");
    await user.click(screen.getByRole("button", { name: "Save rules" }));

    expect(await screen.findByText(PRICING_RULE_MESSAGES.overrideMatch, undefined, SLOW)).toBeInTheDocument();
    expect(screen.getByLabelText("Floor")).toHaveAccessibleDescription(expect.stringContaining(PRICING_RULE_MESSAGES.floor));
    expect(screen.getByLabelText("Auto-apply under %")).toHaveAccessibleDescription(
      expect.stringContaining(PRICING_RULE_MESSAGES.autoOverBig),
    );
    expect(seen.filter((r) => r.method === "PUT")).toEqual([]);
  });
});
