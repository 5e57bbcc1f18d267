import { Link2, RefreshCw } from "lucide-react";
import { type ReactNode, useEffect, useId, useState } from "react";
import { FINISH_LABELS } from "../../../../contract/market";
import type { FeedCard, UnmatchedAnswer } from "../../../../contract/prices";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input, Label } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { loadErrorText } from "../../../lib/http";
import { failureText, notify } from "../../notifications";
import { useMoney } from "../../settings";
import { useFeeds } from "../api/list-feeds";
import { CARD_SEARCH_MIN, linkable, useFeedCards, useLinkProduct, useUnmatched } from "../api/unmatched";
import { Panel } from "./panel";
import { ShowMore } from "./show-more";

type Unmatched = UnmatchedAnswer["products"][number];

const count = (n: number) => n.toLocaleString("en-US");
/** The search waits this long after the last keystroke. */
const SEARCH_WAIT_MS = 300;
export const LINK_FAILED = "Failed to link the product";

/** "Base Set · 4/102": where a product or a printing is in its set. */
const placeText = (set: string | null, number: string | null) => [set, number].filter(Boolean).join(" · ");

/**
 * The products a feed's last run did not price (found by none of their ids, nor by set + number
 * in their finish), each linked by searching the feed's cards by name and picking the printing:
 * its ids and finish are set on the product, and the feed's next run prices it.
 */
export function UnmatchedSection() {
  const id = useId();
  const feeds = useFeeds();
  const read = (feeds.data ?? []).filter((f) => f.last_run !== null);
  const [chosen, setChosen] = useState<number | null>(null);
  const feedId = chosen !== null && read.some((f) => f.id === chosen) ? chosen : (read[0]?.id ?? null);
  const feed = read.find((f) => f.id === feedId) ?? null;
  const list = useUnmatched(feedId);
  const [linking, setLinking] = useState<Unmatched | null>(null);
  // Linked here: listed until the feed's next run prices them.
  const [linked, setLinked] = useState<ReadonlySet<number>>(new Set());

  let body: ReactNode;
  if (feeds.isPending || (feedId !== null && list.isPending)) {
    body = (
      <div className="flex items-center gap-2 p-2">
        <Spinner label="Loading unmatched products" />
        Loading unmatched products...
      </div>
    );
  } else if (feeds.isError || list.isError) {
    const retry = () => void (feeds.isError ? feeds.refetch() : list.refetch());
    body = (
      <div className="flex flex-col items-start gap-2 p-2">
        <p role="alert" className="font-medium text-red-800 dark:text-red-200">
          {loadErrorText(feeds.error ?? list.error)}
        </p>
        <Button variant="outline" size="sm" onClick={retry} disabled={feeds.isFetching || list.isFetching}>
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          Try Again
        </Button>
      </div>
    );
  } else if (feedId === null) {
    body = (
      <p className="rounded-lg border border-gray-200 p-4 text-center text-sm dark:border-gray-700">
        No feed has been read yet. Products a feed does not price are listed here once its file is read.
      </p>
    );
  } else if (list.total === 0) {
    body = (
      <p className="rounded-lg border border-gray-200 p-4 text-center text-sm dark:border-gray-700">
        Every active product is priced by this feed.
      </p>
    );
  } else {
    body = (
      <>
        <p className="text-sm text-gray-700 dark:text-gray-300" aria-live="polite">
          {count(list.total)} {list.total === 1 ? "product" : "products"} not priced by {feed?.name}.
        </p>
        <ul aria-label={`Products not priced by ${feed?.name}`} className="flex flex-col divide-y divide-gray-200 dark:divide-gray-700">
          {list.products.map((p) => (
            <li key={p.id} data-testid="unmatched-row" className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0">
                <p className="break-words font-medium">{p.product_name}</p>
                <p className="text-xs text-gray-700 dark:text-gray-300">
                  <span className="font-mono">{p.barcode}</span>
                  {placeText(p.set_name, p.card_number) ? ` · ${placeText(p.set_name, p.card_number)}` : ""} · {FINISH_LABELS[p.finish]}
                </p>
              </div>
              {linked.has(p.id) ? (
                <Badge variant="success">Linked: priced at the feed's next run</Badge>
              ) : (
                <Button size="sm" variant="outline" onClick={() => setLinking(p)} aria-label={`Link ${p.product_name}`}>
                  <Link2 aria-hidden="true" className="h-4 w-4" />
                  Link
                </Button>
              )}
            </li>
          ))}
        </ul>
        <ShowMore shown={list.products.length} total={list.total} list={list} />
      </>
    );
  }

  return (
    <Panel
      titleId={`${id}-title`}
      title="Unmatched products"
      description="Products a feed did not price (found by none of their ids, nor by set and number). Link one by picking its printing in the feed."
      testId="prices-unmatched"
    >
      {read.length > 1 ? (
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-feed`}>Feed</Label>
          <select
            id={`${id}-feed`}
            className="h-10 rounded-md border border-gray-300 bg-white px-2 text-sm dark:border-gray-600 dark:bg-gray-900"
            value={feedId ?? ""}
            onChange={(e) => setChosen(Number(e.target.value))}
          >
            {read.map((f) => (
              <option key={f.id} value={f.id}>
                {f.name}
              </option>
            ))}
          </select>
        </div>
      ) : null}
      {body}
      {linking && feed ? (
        <LinkDialog
          feedId={feed.id}
          feedName={feed.name}
          product={linking}
          onClose={() => setLinking(null)}
          onLinked={() => {
            setLinked((s) => new Set(s).add(linking.id));
            setLinking(null);
          }}
        />
      ) : null}
    </Panel>
  );
}

/** Searching the feed's printings by name (the product's name to start with) and linking the product to one. */
function LinkDialog({
  feedId,
  feedName,
  product,
  onClose,
  onLinked,
}: {
  feedId: number;
  feedName: string;
  product: Unmatched;
  onClose: () => void;
  onLinked: () => void;
}) {
  const id = useId();
  const money = useMoney();
  const [text, setText] = useState(product.product_name);
  const [q, setQ] = useState(product.product_name);
  useEffect(() => {
    const wait = setTimeout(() => setQ(text), SEARCH_WAIT_MS);
    return () => clearTimeout(wait);
  }, [text]);
  const cards = useFeedCards(feedId, q);
  const link = useLinkProduct();
  const pick = (card: FeedCard) =>
    link.mutate(
      { productId: product.id, card },
      {
        onSuccess: () => {
          notify.success(`${product.product_name} linked to ${card.name ?? "the printing"}: priced at ${feedName}'s next run`);
          onLinked();
        },
        onError: (err) => notify.error(failureText(LINK_FAILED, err)),
      },
    );
  const short = q.trim().length < CARD_SEARCH_MIN;

  let results: ReactNode;
  if (short) {
    results = <p className="text-sm text-gray-700 dark:text-gray-300">Type at least {CARD_SEARCH_MIN} letters of the card's name.</p>;
  } else if (cards.isPending) {
    results = (
      <div className="flex items-center gap-2 p-2">
        <Spinner label="Searching the feed" />
        Searching...
      </div>
    );
  } else if (cards.isError) {
    results = (
      <div className="flex flex-col items-start gap-2">
        <p role="alert" className="font-medium text-red-800 dark:text-red-200">
          {loadErrorText(cards.error)}
        </p>
        <Button variant="outline" size="sm" onClick={() => void cards.refetch()} disabled={cards.isFetching}>
          <RefreshCw aria-hidden="true" className="h-4 w-4" />
          Try Again
        </Button>
      </div>
    );
  } else if (cards.data.length === 0) {
    results = (
      <p className="text-sm text-gray-700 dark:text-gray-300">
        No card in {feedName} is named like "{q.trim()}".
      </p>
    );
  } else {
    results = (
      <ul aria-label="Printings found" className="flex flex-col divide-y divide-gray-200 dark:divide-gray-700">
        {cards.data.map((card, i) => {
          const name = card.name ?? "Unnamed card";
          const place = placeText(card.set_name ?? card.set_code, card.number);
          return (
            // biome-ignore lint/suspicious/noArrayIndexKey: a printing has no one id (the feed may give any of three, or none)
            <li key={i} data-testid="feed-card-result" className="flex flex-wrap items-center justify-between gap-2 py-2">
              <div className="min-w-0 text-sm">
                <p className="break-words font-medium">{name}</p>
                <p className="text-xs text-gray-700 dark:text-gray-300">
                  {place ? `${place} · ` : ""}
                  {FINISH_LABELS[card.finish]}
                  {card.market !== null ? ` · market ${money(card.market)}` : ""}
                </p>
              </div>
              {linkable(card) ? (
                <Button
                  size="sm"
                  onClick={() => pick(card)}
                  disabled={link.isPending}
                  aria-label={`Link to ${[name, place, FINISH_LABELS[card.finish]].filter(Boolean).join(", ")}`}
                >
                  Link to this
                </Button>
              ) : (
                <span className="text-xs text-gray-700 dark:text-gray-300">No id to link by</span>
              )}
            </li>
          );
        })}
      </ul>
    );
  }

  return (
    <Dialog
      onClose={onClose}
      title={`Link ${product.product_name}`}
      description={`Pick its printing in ${feedName}: its ids and finish are set on the product, and the feed's next run prices it.`}
      busy={link.isPending}
      size="lg"
    >
      <div className="flex flex-col gap-3">
        <div className="flex flex-col gap-1.5">
          <Label htmlFor={`${id}-q`}>Card name</Label>
          <Input id={`${id}-q`} type="search" value={text} onChange={(e) => setText(e.target.value)} autoComplete="off" />
        </div>
        <div aria-live="polite" aria-busy={cards.isFetching || undefined}>
          {results}
        </div>
      </div>
    </Dialog>
  );
}
