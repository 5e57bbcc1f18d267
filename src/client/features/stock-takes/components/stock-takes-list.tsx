import { type FormEvent, useState } from "react";
import type { Location, StockTake } from "../../../../contract/stock-takes";
import { Button } from "../../../components/ui/button";
import { Input, Label } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { notify } from "../../notifications";
import { useCreateLocation, useLocations, useLocationsFromProducts, useStartStockTake, useStockTakes } from "../api/stock-takes";
import { StatusBadge } from "./status-badge";

export interface StockTakesListProps {
  onCount: (id: number) => void;
  onReview: (id: number) => void;
}

function scopeText(take: StockTake, locations: Location[] | undefined): string {
  if ("whole_shop" in take.scope) return "The whole shop";
  const names = new Map((locations ?? []).map((l) => [l.id, l.name]));
  return take.scope.location_ids.map((id) => names.get(id) ?? `Location ${id}`).join(", ");
}

/** The Stock take view: start a count (some locations or the whole shop) and the sessions, newest first. */
export function StockTakesList({ onCount, onReview }: StockTakesListProps) {
  const locations = useLocations();
  const sessions = useStockTakes();
  return (
    <div className="flex flex-col gap-4">
      <h1 className="text-2xl font-bold">Stock take</h1>
      <StartForm locations={locations} onStarted={onCount} />
      <section aria-labelledby="sessions-heading" className="flex flex-col gap-2">
        <h2 id="sessions-heading" className="text-lg font-semibold">
          Counts
        </h2>
        {sessions.isPending ? (
          <p className="flex items-center gap-2" aria-busy="true">
            <Spinner /> Loading stock takes...
          </p>
        ) : sessions.isError ? (
          <p role="alert" className="text-red-700 dark:text-red-300">
            {loadErrorText(sessions.error)}{" "}
            <Button size="sm" variant="outline" onClick={() => void sessions.refetch()}>
              Try again
            </Button>
          </p>
        ) : sessions.data.length === 0 ? (
          <p>No stock takes yet. Start one above.</p>
        ) : (
          <ul className="flex flex-col gap-2">
            {sessions.data.map((take) => (
              <li
                key={take.id}
                className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-lg border border-gray-300 bg-white p-3 dark:border-gray-700 dark:bg-gray-900"
              >
                <span className="font-semibold">Stock take #{take.number}</span>
                <StatusBadge status={take.status} />
                <span className="text-sm">{scopeText(take, locations.data)}</span>
                <span className="text-sm text-gray-700 dark:text-gray-300">
                  {take.scans} scan{take.scans === 1 ? "" : "s"} · started by {take.started_by} {new Date(take.started_at).toLocaleString()}
                </span>
                <span className="ml-auto flex gap-2">
                  {take.status === "counting" ? (
                    <Button size="sm" onClick={() => onCount(take.id)} aria-label={`Count stock take #${take.number}`}>
                      Count
                    </Button>
                  ) : null}
                  <Button size="sm" variant="outline" onClick={() => onReview(take.id)} aria-label={`Review stock take #${take.number}`}>
                    {take.status === "approved" || take.status === "cancelled" ? "Report" : "Review"}
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function StartForm({ locations, onStarted }: { locations: ReturnType<typeof useLocations>; onStarted: (id: number) => void }) {
  const [wholeShop, setWholeShop] = useState(false);
  const [chosen, setChosen] = useState<Set<number>>(new Set());
  const [newName, setNewName] = useState("");
  const start = useStartStockTake();
  const fromProducts = useLocationsFromProducts();
  const create = useCreateLocation();

  function toggle(id: number) {
    setChosen((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }

  async function onStart(event: FormEvent) {
    event.preventDefault();
    try {
      const take = await start.mutateAsync({ scope: wholeShop ? { whole_shop: true } : { location_ids: [...chosen] } });
      notify.success(`Stock take #${take.number} started`);
      onStarted(take.id);
    } catch (err) {
      notify.error(messageOr(err, "Failed to start the stock take"));
    }
  }

  async function onFromProducts() {
    try {
      const answer = await fromProducts.mutateAsync();
      notify.success(
        answer.created.length === 0
          ? "No new locations: the products hold no other location texts"
          : `${answer.created.length} location(s) made`,
      );
    } catch (err) {
      notify.error(messageOr(err, "Failed to make the locations"));
    }
  }

  async function onAdd(event: FormEvent) {
    event.preventDefault();
    if (!newName.trim()) return;
    try {
      await create.mutateAsync(newName.trim());
      setNewName("");
    } catch (err) {
      notify.error(messageOr(err, "Failed to add the location"));
    }
  }

  const list = locations.data ?? [];
  const canStart = wholeShop || chosen.size > 0;
  return (
    <section
      aria-labelledby="start-heading"
      className="flex flex-col gap-3 rounded-lg border border-gray-300 bg-white p-3 dark:border-gray-700 dark:bg-gray-900"
    >
      <h2 id="start-heading" className="text-lg font-semibold">
        Start a count
      </h2>
      <form onSubmit={onStart} className="flex flex-col gap-3">
        <fieldset className="flex flex-col gap-2">
          <legend className="mb-1 font-medium">What to count</legend>
          <label className="flex min-h-10 items-center gap-2">
            <input type="checkbox" className="h-5 w-5" checked={wholeShop} onChange={(e) => setWholeShop(e.target.checked)} />
            The whole shop
          </label>
          {locations.isPending ? (
            <p className="flex items-center gap-2" aria-busy="true">
              <Spinner /> Loading locations...
            </p>
          ) : locations.isError ? (
            <p role="alert" className="text-red-700 dark:text-red-300">
              {loadErrorText(locations.error)}
            </p>
          ) : list.length === 0 ? (
            <p>No locations yet: make them from the products' location texts, or add one below.</p>
          ) : (
            <ul className="grid grid-cols-1 gap-1 sm:grid-cols-3" aria-label="Locations">
              {list.map((l) => (
                <li key={l.id}>
                  <label className="flex min-h-10 items-center gap-2">
                    <input
                      type="checkbox"
                      className="h-5 w-5"
                      disabled={wholeShop}
                      checked={!wholeShop && chosen.has(l.id)}
                      onChange={() => toggle(l.id)}
                    />
                    {l.name}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <div>
          <Button type="submit" size="lg" disabled={!canStart || start.isPending}>
            {start.isPending ? "Starting..." : "Start stock take"}
          </Button>
        </div>
      </form>
      <div className="flex flex-wrap items-end gap-2 border-t border-gray-200 pt-3 dark:border-gray-700">
        <Button variant="outline" onClick={() => void onFromProducts()} disabled={fromProducts.isPending}>
          {fromProducts.isPending ? "Making locations..." : "Make locations from the products' location texts"}
        </Button>
        <form onSubmit={onAdd} className="flex items-end gap-2">
          <div className="flex flex-col gap-1">
            <Label htmlFor="new-location">New location</Label>
            <Input id="new-location" value={newName} onChange={(e) => setNewName(e.target.value)} autoComplete="off" />
          </div>
          <Button type="submit" variant="outline" disabled={!newName.trim() || create.isPending}>
            Add location
          </Button>
        </form>
      </div>
    </section>
  );
}
