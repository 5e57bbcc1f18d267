import { useMutation } from "@tanstack/react-query";
import { Database } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import type { CounterFeedCard } from "../../../../contract/counter";
import { FINISH_LABELS } from "../../../../contract/market";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText, messageOr } from "../../../lib/http";
import { useMoney } from "../../settings";
import { productFromFeed, useCounterFeedCards } from "../api/counter-api";

/** How a printing reads: name, set and number, finish. */
export function printingText(card: CounterFeedCard): string {
  const place = [card.set_name ?? card.set_code, card.number ? `#${card.number}` : null].filter(Boolean).join(" ");
  return [card.name, place, FINISH_LABELS[card.finish]].filter(Boolean).join(" · ");
}

/**
 * A card the catalogue does not have, from the price feeds' printings (issue 40): searched by the
 * name typed, and added to the catalogue (with its market ids and the feed's price) and to the
 * trade-in in one step. Offered when the catalogue has no match.
 */
export function FeedSearch({ q, onAdded }: { q: string; onAdded: (product: Product) => void }) {
  const money = useMoney();
  const [asked, setAsked] = useState(false);
  const cards = useCounterFeedCards(q, asked);
  const add = useMutation({
    mutationFn: (card: CounterFeedCard) => productFromFeed({ feed_id: card.feed_id, run_id: card.run_id, seq: card.seq }),
    onSuccess: onAdded,
  });
  // The button that asked is gone once the answer shows: focus goes to the answer, for the keyboard and a screen reader.
  const answer = useRef<HTMLDivElement>(null);
  const settled = asked && !cards.isPending;
  useEffect(() => {
    if (settled) answer.current?.focus();
  }, [settled]);

  if (!asked) {
    return (
      <div>
        <Button variant="outline" size="sm" onClick={() => setAsked(true)} disabled={q.length < 2}>
          <Database aria-hidden="true" className="h-4 w-4" />
          Search the price feed
        </Button>
      </div>
    );
  }
  if (cards.isPending) return <Spinner label="Searching the price feed" />;
  if (cards.isError) {
    return (
      <div
        ref={answer}
        tabIndex={-1}
        role="alert"
        className="flex flex-wrap items-center gap-2 text-sm text-red-700 outline-none dark:text-red-400"
      >
        {loadErrorText(cards.error)}
        <Button variant="outline" size="sm" onClick={() => void cards.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (cards.data.length === 0) {
    return (
      <p ref={answer} tabIndex={-1} className="text-sm outline-none" role="status">
        {`No printing in the price feed matches "${q}".`}
      </p>
    );
  }
  return (
    <div ref={answer} tabIndex={-1} className="flex flex-col gap-2 outline-none">
      <p className="text-sm" role="status">{`Printings in the price feed matching "${q}": add one to the catalogue and trade it in.`}</p>
      {add.isError ? (
        <p role="alert" className="text-sm text-red-700 dark:text-red-400">
          {messageOr(add.error, "Failed to add the card to the catalogue")}
        </p>
      ) : null}
      <ul aria-label={`Price feed printings matching ${q}`} className="flex flex-col gap-1">
        {cards.data.map((card) => {
          const text = printingText(card);
          const adding = add.isPending && add.variables === card;
          return (
            <li
              key={`${card.run_id}-${card.seq}`}
              className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 p-2 dark:border-gray-700"
            >
              <span className="min-w-0 break-words text-sm">
                <span className="font-semibold">{card.name}</span>
                {text.slice((card.name ?? "").length)} · {card.market === null ? "no market price" : `Market ${money(card.market)}`} (
                {card.feed_name})
              </span>
              <Button
                size="sm"
                aria-label={`Add to catalogue and trade in: ${text}`}
                disabled={add.isPending}
                onClick={() => add.mutate(card)}
              >
                {adding ? "Adding..." : "Add to catalogue and trade in"}
              </Button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
