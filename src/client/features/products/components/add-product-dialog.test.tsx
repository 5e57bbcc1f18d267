import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { fakeApi } from "../../../test/product-fakes";
import { ProductStore } from "../store/product-store";
import { ProductStoreProvider } from "../store/product-store-provider";
import { AddProductDialog } from "./add-product-dialog";

function renderDialog(initialBarcode?: string) {
  const client = new QueryClient();
  render(
    <QueryClientProvider client={client}>
      <ProductStoreProvider store={new ProductStore(fakeApi().api)}>
        <AddProductDialog onClose={() => {}} initialBarcode={initialBarcode} />
      </ProductStoreProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

describe("AddProductDialog (validation before anything is sent)", () => {
  it("shows the required message once, marks the fields, and clears it on the next edit", async () => {
    const user = renderDialog();
    expect(screen.getByRole("dialog", { name: "Add New Product" })).toBeInTheDocument();
    expect(screen.getByLabelText("Quantity")).toHaveValue(0);
    await user.click(screen.getByRole("button", { name: "Add Product" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Barcode, product name, and vendor are required$/);
    expect(screen.getByLabelText("Barcode *")).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByLabelText("Vendor *")).toHaveAttribute("aria-invalid", "true");
    await user.type(screen.getByLabelText("Barcode *"), "1");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("checks the release year range and the quantity", async () => {
    const user = renderDialog("0123456789");
    expect(screen.getByLabelText("Barcode *")).toHaveValue("0123456789");
    await user.type(screen.getByLabelText("Product Name *"), "Box");
    await user.type(screen.getByLabelText("Vendor *"), "Topps");
    await user.type(screen.getByLabelText("Release Year"), "1899");
    await user.click(screen.getByRole("button", { name: "Add Product" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Release year must be between 1900 and 2030");
    await user.clear(screen.getByLabelText("Release Year"));
    await user.type(screen.getByLabelText("Release Year"), "2024");
    await user.clear(screen.getByLabelText("Quantity"));
    await user.type(screen.getByLabelText("Quantity"), "-2");
    await user.click(screen.getByRole("button", { name: "Add Product" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("Quantity must be a whole number of 0 or more");
  });
});
