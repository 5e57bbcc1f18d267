import { act, fireEvent, render, screen, waitFor } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { SEARCH_WRITE_DELAY_MS, useSearchState } from "./use-search-state";

/** A text filter kept as `q`, with a default page size `n=10` the address should name. */
interface State {
  q: string;
  n: number;
}
const read = (params: URLSearchParams): State => ({ q: params.get("q") ?? "", n: Number(params.get("n") ?? 10) });
const write = ({ q, n }: State) => {
  const params = new URLSearchParams();
  if (q) params.set("q", q);
  params.set("n", String(n));
  return params;
};

function Search({ search, onSearchChange }: { search: string; onSearchChange: (query: string) => void }) {
  const [state, setState] = useSearchState(search, onSearchChange, read, write);
  return (
    <>
      <input aria-label="Search" value={state.q} onChange={(e) => setState({ ...state, q: e.target.value })} />
      <button type="button" onClick={() => setState({ ...state, n: 50 }, { now: true })}>
        Show 50
      </button>
    </>
  );
}

/** The address: what the screen wrote to it, and a way to change it from elsewhere (Back, a link). */
interface AddressProbe {
  writes: string[];
  goTo: (search: string) => void;
}

function Address({ initial, probe }: { initial: string; probe: AddressProbe }) {
  const [search, setSearch] = useState(initial);
  probe.goTo = setSearch;
  return (
    <Search
      search={search}
      onSearchChange={(query) => {
        probe.writes.push(query);
        setSearch(`?${query}`);
      }}
    />
  );
}

function renderWithAddress(initial: string) {
  const probe: AddressProbe = { writes: [], goTo: () => {} };
  render(<Address initial={initial} probe={probe} />);
  return { writes: probe.writes, goTo: (search: string) => act(() => probe.goTo(search)) };
}

describe("state kept in the address's query string", () => {
  it("is read from the address, which is written out in full at once", () => {
    const { writes } = renderWithAddress("?q=pikachu");
    expect(screen.getByLabelText("Search")).toHaveValue("pikachu");
    expect(writes).toEqual(["q=pikachu&n=10"]);
  });

  it("changes on screen at once; the address follows once the typing pauses, not at every key", async () => {
    const { writes } = renderWithAddress("?n=10");
    expect(writes).toEqual([]);
    const input = screen.getByLabelText("Search");
    for (const text of ["c", "ch", "cha", "char"]) fireEvent.change(input, { target: { value: text } });
    expect(input).toHaveValue("char");
    expect(writes).toEqual([]);
    await waitFor(() => expect(writes).toEqual(["q=char&n=10"]), { timeout: SEARCH_WRITE_DELAY_MS * 5 });
    // The address arriving does not take back what was typed since.
    fireEvent.change(input, { target: { value: "chari" } });
    await waitFor(() => expect(writes).toEqual(["q=char&n=10", "q=chari&n=10"]), { timeout: SEARCH_WRITE_DELAY_MS * 5 });
    expect(input).toHaveValue("chari");
  });

  it("takes a query it did not write (Back, a link) as its state, and drops a write still waiting", async () => {
    const { writes, goTo } = renderWithAddress("?q=one&n=10");
    const input = screen.getByLabelText("Search");
    fireEvent.change(input, { target: { value: "one more" } });
    goTo("?q=two&n=10");
    expect(input).toHaveValue("two");
    await new Promise((resolve) => setTimeout(resolve, SEARCH_WRITE_DELAY_MS * 2));
    expect(writes).toEqual([]);
    expect(input).toHaveValue("two");
  });

  it("writes a choice made in one step at once, with what was typed before it", () => {
    const { writes } = renderWithAddress("?n=10");
    fireEvent.change(screen.getByLabelText("Search"), { target: { value: "char" } });
    fireEvent.click(screen.getByRole("button", { name: "Show 50" }));
    expect(writes).toEqual(["q=char&n=50"]);
  });
});
