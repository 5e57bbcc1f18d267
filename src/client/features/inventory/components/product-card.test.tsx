import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { fireEvent, render, screen } from "@testing-library/react";
import type { ComponentProps } from "react";
import { describe, expect, it } from "vitest";
import type { Product } from "../../../../contract/products";
import { NO_DETAILS } from "../../../../contract/rules";
import { fakeApi } from "../../../test/product-fakes";
import { ProductStore, ProductStoreProvider } from "../../products";
import { useMoney } from "../../settings";
import { ProductCard } from "./product-card";

const base: Product = {
  id: 1,
  barcode: "0123456789012",
  product_name: "Prizm Hobby Box",
  vendor: "Panini",
  release_year: 2024,
  quantity_on_hand: 6,
  ...NO_DETAILS,
  photos: [],
  is_active: true,
  version: 1,
  revision: 1,
  created_at: "2026-01-01T00:00:00.000Z",
  updated_at: "2026-01-01T00:00:00.000Z",
};

/** The card as the grid gives it the shop's money format. */
function CardWithMoney(props: Omit<ComponentProps<typeof ProductCard>, "money">) {
  return <ProductCard {...props} money={useMoney()} />;
}

function renderCard(product: Partial<Product>, canManageProducts = true) {
  const calls: string[] = [];
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProductStoreProvider store={new ProductStore(fakeApi().api)}>
        <CardWithMoney
          product={{ ...base, ...product }}
          canManageProducts={canManageProducts}
          onEdit={() => calls.push("edit")}
          onToggleStatus={() => calls.push("toggle")}
          onHistory={() => calls.push("history")}
        />
      </ProductStoreProvider>
    </QueryClientProvider>,
  );
  return calls;
}

describe("ProductCard", () => {
  it("shows the product and flags low stock at 5 or fewer", () => {
    renderCard({ quantity_on_hand: 6 });
    expect(screen.getByRole("heading", { name: "Prizm Hobby Box" })).toBeInTheDocument();
    expect(screen.getByText("Panini")).toBeInTheDocument();
    expect(screen.getByText("2024")).toBeInTheDocument();
    expect(screen.getByLabelText("Quantity on hand")).toHaveTextContent("6");
    expect(screen.queryByText("Low stock")).toBeNull();
  });

  it.each([
    [5, "Low stock"],
    [1, "Low stock"],
    [0, "Out of stock"],
  ])("stock %i reads '%s'", (quantity, label) => {
    renderCard({ quantity_on_hand: quantity });
    expect(screen.getByText(label)).toBeInTheDocument();
  });

  it("cannot go below 0", () => {
    renderCard({ quantity_on_hand: 0 });
    expect(screen.getByRole("button", { name: /Decrease quantity/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: /Increase quantity/ })).toBeEnabled();
  });

  it("gives managers Edit, Disable and the audit trail", () => {
    const calls = renderCard({});
    fireEvent.click(screen.getByRole("button", { name: "Edit" }));
    fireEvent.click(screen.getByRole("button", { name: "Disable" }));
    fireEvent.click(screen.getByRole("button", { name: "Audit trail of Prizm Hobby Box" }));
    expect(calls).toEqual(["edit", "toggle", "history"]);
  });

  it("a disabled product: marked, quantity locked, Enable offered", () => {
    renderCard({ is_active: false });
    expect(screen.getByText("Disabled")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: /Decrease quantity/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: /Increase quantity/ })).toBeDisabled();
    expect(screen.getByRole("button", { name: "Enable" })).toBeInTheDocument();
  });

  it("without product management: quantity only", () => {
    renderCard({}, false);
    expect(screen.queryByRole("button", { name: "Edit" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Disable" })).toBeNull();
    expect(screen.getByRole("button", { name: /Increase quantity/ })).toBeEnabled();
  });
});
