import { act, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LONG_PRESS_MS, REPEAT_MS } from "../../../lib/ui-timings";
import { fakeApi, fakeProduct } from "../../../test/product-fakes";
import { ProductStore, ProductStoreProvider } from "../../products";
import { QuantityStepper } from "./quantity-stepper";

afterEach(() => {
  vi.useRealTimers();
});

/** A stepper in a product store holding products 1 and 2; `show` gives it another product, as a reused table row does. */
function renderStepper() {
  const store = new ProductStore(fakeApi().api);
  store.put(fakeProduct(1, 1, { quantity_on_hand: 10, product_name: "First" }));
  store.put(fakeProduct(2, 1, { quantity_on_hand: 10, product_name: "Second" }));
  const view = (id: number) => (
    <ProductStoreProvider store={store}>
      <QuantityStepper product={store.get(id) as NonNullable<ReturnType<typeof store.get>>} />
    </ProductStoreProvider>
  );
  const { rerender } = render(view(1));
  return { store, show: (id: number) => rerender(view(id)) };
}

describe("QuantityStepper", () => {
  it("a held press repeats for its product", () => {
    vi.useFakeTimers();
    const { store } = renderStepper();
    fireEvent.pointerDown(screen.getByRole("button", { name: "Increase quantity of First" }), { button: 0 });
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS + REPEAT_MS));
    expect(store.pendingDelta(1)).toBe(3);
  });

  it("a held press stops, and never steps the next product, when the stepper is given another product", () => {
    vi.useFakeTimers();
    const { store, show } = renderStepper();
    fireEvent.pointerDown(screen.getByRole("button", { name: "Increase quantity of First" }), { button: 0 });
    expect(store.pendingDelta(1)).toBe(1);
    show(2);
    expect(screen.getByRole("button", { name: "Increase quantity of Second" })).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(LONG_PRESS_MS + 4 * REPEAT_MS));
    expect(store.pendingDelta(1)).toBe(1);
    expect(store.pendingDelta(2)).toBe(0);
    expect(screen.getByLabelText("Quantity on hand")).toHaveTextContent("10");
  });
});
