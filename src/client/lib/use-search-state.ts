import { useCallback, useEffect, useRef, useState } from "react";

/**
 * How long the address waits for more changes before it follows: typing in a search box changes
 * it once, not at every key (browsers refuse a page that changes its address too often; Safari
 * allows 100 changes in 30 seconds, and a barcode scanner types a dozen keys at once).
 */
export const SEARCH_WRITE_DELAY_MS = 300;

/**
 * A screen's state kept in the address's query string (search, filters, sort, a report's range).
 * `search` is the address's query; `read` turns it into state (anything it does not understand
 * into defaults) and `write` turns the state into a query. The state changes on screen at once and
 * the address follows shortly after (`onSearchChange`, which replaces the entry: Back leaves the
 * screen, not each keystroke); a query the state did not write (Back or Forward to another entry,
 * a link to the same screen) becomes the state. On the first render an address that says less
 * than the state (defaults, a sort remembered by this browser) is written out in full. `flush`
 * writes a change still waiting at once (call it before going to another address). A choice made
 * in one step (a sort, a range) is written at once with `set(next, { now: true })`: only typing waits,
 * and a reload straight after a click keeps the click.
 */
export function useSearchState<T>(
  search: string,
  onSearchChange: (query: string) => void,
  read: (params: URLSearchParams) => T,
  write: (value: T) => URLSearchParams,
): [T, (next: T, options?: { now?: boolean }) => void, () => void] {
  const query = search.startsWith("?") ? search.slice(1) : search;
  const [state, setState] = useState(() => read(new URLSearchParams(query)));
  /** Queries this state wrote that the address has not shown yet (a navigation renders a little later). */
  const written = useRef(new Set<string>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const change = useRef(onSearchChange);
  change.current = onSearchChange;
  const latest = useRef({ state, read, write });
  latest.current = { state, read, write };

  const send = useCallback((next: string) => {
    written.current.add(next);
    change.current(next);
  }, []);

  // The address written out in full once (no wait: nothing is being typed yet).
  // biome-ignore lint/correctness/useExhaustiveDependencies: only on the first render
  useEffect(() => {
    const full = write(state).toString();
    if (full !== query) send(full);
  }, []);

  // A query from elsewhere becomes the state.
  const seen = useRef(query);
  useEffect(() => {
    if (query === seen.current) return;
    seen.current = query;
    if (written.current.has(query)) {
      // This one and any written before it have arrived.
      for (const q of written.current) {
        written.current.delete(q);
        if (q === query) break;
      }
      return;
    }
    const { state: now, read: readNow, write: writeNow } = latest.current;
    if (writeNow(now).toString() === query) return;
    clearTimeout(timer.current);
    written.current.clear();
    setState(readNow(new URLSearchParams(query)));
  }, [query]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const set = useCallback(
    (next: T, options?: { now?: boolean }) => {
      setState(next);
      clearTimeout(timer.current);
      if (options?.now) {
        timer.current = undefined;
        send(latest.current.write(next).toString());
        return;
      }
      timer.current = setTimeout(() => {
        timer.current = undefined;
        send(latest.current.write(next).toString());
      }, SEARCH_WRITE_DELAY_MS);
    },
    [send],
  );
  // Before the screen opens another address (a product's dialog): the entry it leaves keeps what was just typed.
  const flush = useCallback(() => {
    if (timer.current === undefined) return;
    clearTimeout(timer.current);
    timer.current = undefined;
    const { state: now, write: writeNow } = latest.current;
    send(writeNow(now).toString());
  }, [send]);
  return [state, set, flush];
}
