import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { Product } from "../../../../contract/products";
import { fakeEvent as event, fakeApi, fakeProduct as product } from "../../../test/product-fakes";
import { ProductStore } from "../store/product-store";
import { ProductStoreProvider } from "../store/product-store-provider";
import { EditProductDialog } from "./edit-product-dialog";

const opened = product(1, 5, { product_name: "Prizm Box", vendor: "Panini", quantity_on_hand: 10, version: 3 });

/** fetch answering PUT /api/products/1 with `answers` in turn; the sent bodies are kept. */
function stubServer(answers: Array<{ status: number; body: unknown }>) {
  const sent: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (_url: string, init?: RequestInit) => {
      sent.push(JSON.parse(String(init?.body)));
      const answer = answers[sent.length - 1] ?? { status: 500, body: {} };
      return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "Content-Type": "application/json" } });
    }),
  );
  return sent;
}
afterEach(() => vi.unstubAllGlobals());

function renderDialog() {
  const store = new ProductStore(fakeApi().api);
  store.put(opened);
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ProductStoreProvider store={store}>
        <EditProductDialog product={opened} onClose={onClose} />
      </ProductStoreProvider>
    </QueryClientProvider>,
  );
  return { store, onClose, user: userEvent.setup() };
}

/** Another user's committed change arriving live. */
const theirs = (fields: Partial<Product>, revision: number) =>
  event("product_updated", { product: { ...opened, ...fields, revision, version: opened.version + 1 } });

describe("EditProductDialog (merging edits)", () => {
  it("sends only the changed field with the version it opened with; stock sold meanwhile shows and is not sent", async () => {
    const { store, onClose, user } = renderDialog();
    act(() => store.applyEvent(theirs({ quantity_on_hand: 8 }, 6)));
    expect(screen.getByLabelText("Quantity")).toHaveValue(8);
    const sent = stubServer([{ status: 200, body: { ...opened, vendor: "Panini America", quantity_on_hand: 8, revision: 7, version: 5 } }]);
    await user.clear(screen.getByLabelText("Vendor *"));
    await user.type(screen.getByLabelText("Vendor *"), "Panini America");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(sent).toEqual([{ vendor: "Panini America", version: 3 }]);
    expect(onClose).toHaveBeenCalledOnce();
    expect(store.get(1)).toMatchObject({ vendor: "Panini America", quantity_on_hand: 8 });
  });

  it("a field the user is editing keeps the user's value when someone else changes it", async () => {
    const { store, user } = renderDialog();
    await user.type(screen.getByLabelText("Product Name *"), " (mine)");
    act(() => store.applyEvent(theirs({ product_name: "Theirs", vendor: "Topps" }, 6)));
    expect(screen.getByLabelText("Product Name *")).toHaveValue("Prizm Box (mine)");
    expect(screen.getByLabelText("Vendor *")).toHaveValue("Topps");
  });

  it("Save with nothing changed just closes", async () => {
    const { onClose, user } = renderDialog();
    const sent = stubServer([]);
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(sent).toEqual([]);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("a conflict names only the conflicting fields; Apply resends the same fields with the current version", async () => {
    const { store, onClose, user } = renderDialog();
    const current = { ...opened, product_name: "Theirs", quantity_on_hand: 9, revision: 8, version: 4 };
    const sent = stubServer([
      { status: 409, body: { error: "This product was changed by someone else", product: current, fields: ["product_name"] } },
      { status: 200, body: { ...current, product_name: "Mine", vendor: "Leaf", revision: 9, version: 5 } },
    ]);
    await user.clear(screen.getByLabelText("Product Name *"));
    await user.type(screen.getByLabelText("Product Name *"), "Mine");
    await user.clear(screen.getByLabelText("Vendor *"));
    await user.type(screen.getByLabelText("Vendor *"), "Leaf");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));

    const conflict = await screen.findByTestId("edit-conflict");
    expect(within(conflict).getByRole("alert")).toHaveTextContent("This product was changed by someone else: Product Name.");
    expect(within(conflict).getByRole("alert")).toHaveFocus();
    const rows = within(conflict).getAllByRole("row").slice(1);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toHaveTextContent(/Product Name\s*Theirs\s*Mine/);
    expect(store.get(1)?.quantity_on_hand).toBe(9);

    await user.click(screen.getByRole("button", { name: "Apply My Changes" }));
    expect(sent).toEqual([
      { product_name: "Mine", vendor: "Leaf", version: 3 },
      { product_name: "Mine", vendor: "Leaf", version: 4 },
    ]);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it("Discard My Changes closes and keeps the current product", async () => {
    const { store, onClose, user } = renderDialog();
    const current = { ...opened, quantity_on_hand: 2, revision: 8, version: 4 };
    stubServer([
      { status: 409, body: { error: "This product was changed by someone else", product: current, fields: ["quantity_on_hand"] } },
    ]);
    await user.clear(screen.getByLabelText("Quantity"));
    await user.type(screen.getByLabelText("Quantity"), "12");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    const conflict = await screen.findByTestId("edit-conflict");
    expect(within(conflict).getAllByRole("row")[1]).toHaveTextContent(/Quantity\s*2\s*12/);
    await user.click(screen.getByRole("button", { name: "Discard My Changes" }));
    expect(onClose).toHaveBeenCalledOnce();
    expect(store.get(1)?.quantity_on_hand).toBe(2);
  });

  it("keeps the spec's messages: required fields, and the server's error", async () => {
    const { user } = renderDialog();
    await user.clear(screen.getByLabelText("Vendor *"));
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByRole("alert")).toHaveTextContent(/^Barcode, product name, and vendor are required$/);
    stubServer([{ status: 409, body: { error: "A product with this barcode already exists" } }]);
    await user.type(screen.getByLabelText("Vendor *"), "Leaf");
    await user.clear(screen.getByLabelText("Barcode *"));
    await user.type(screen.getByLabelText("Barcode *"), "taken");
    await user.click(screen.getByRole("button", { name: "Save Changes" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("A product with this barcode already exists");
  });
});
