import { Camera, Search } from "lucide-react";
import { type FormEvent, type ReactNode, Suspense, useEffect, useState } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Field, inputClassName } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { cn } from "../../../lib/cn";
import { messageOr } from "../../../lib/http";
import { useCatalogue, useProductStore } from "../../products";
import { ScannerOverlay } from "../../scanner";

/** Names found in the catalogue for a search, at most. */
const SEARCH_RESULTS = 20;

export interface ScanOrSearchProps {
  inputRef: React.RefObject<HTMLInputElement | null>;
  onProduct: (p: Product) => void;
  onError: (message: string | null) => void;
  /** The form's name for screen readers ("Add cards", "Add cards to the sale"). */
  label: string;
  testId: string;
  /** What a found card's line says after its name and set. */
  detail: (p: Product) => ReactNode;
  /** Below "no card matches": another way to find it (the trade-in's price feed), given how to add what it finds. */
  noMatch?: (q: string, add: (p: Product) => void) => ReactNode;
}

/**
 * The counter's scan field (trade-ins and counter sales): a USB scanner types a barcode and Enter,
 * which adds the card; any other text searches the catalogue by name; the camera scans too. Focus
 * stays in the field for the next card.
 */
export function ScanOrSearch({ inputRef, onProduct, onError, label, testId, detail, noMatch }: ScanOrSearchProps) {
  const { store, status } = useCatalogue();
  const products = useProductStore();
  const [text, setText] = useState("");
  const [looking, setLooking] = useState(false);
  const [results, setResults] = useState<{ q: string; products: Product[] } | null>(null);
  const [camera, setCamera] = useState(false);

  useEffect(() => {
    inputRef.current?.focus();
  }, [inputRef]);

  const add = (p: Product) => {
    onProduct(p);
    setResults(null);
    setText("");
    inputRef.current?.focus();
  };

  const searchByName = (q: string): Product[] => {
    const needle = q.toLowerCase();
    const found: Product[] = [];
    for (let i = 0; i < store.slotCount() && found.length < SEARCH_RESULTS; i++) {
      const p = store.at(i);
      if (p.is_active && p.product_name.toLowerCase().includes(needle)) found.push(p);
    }
    return found;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const q = text.trim();
    if (!q) return;
    setLooking(true);
    onError(null);
    try {
      const known = products.getByBarcode(q) ?? (await products.lookup(q));
      if (known) add(known);
      else setResults({ q, products: searchByName(q) });
    } catch (err) {
      onError(messageOr(err, "Failed to look up the card"));
    } finally {
      setLooking(false);
      inputRef.current?.focus();
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-2" aria-label={label}>
        <Field label="Scan a barcode or search by name" hint="A USB scanner types here; Enter adds the card.">
          <input
            ref={inputRef}
            className={cn(inputClassName, "border-gray-400 dark:border-gray-600")}
            value={text}
            onChange={(e) => setText(e.target.value)}
            autoComplete="off"
            autoCapitalize="none"
            spellCheck={false}
            enterKeyHint="search"
            data-testid={testId}
          />
        </Field>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={looking}>
            <Search aria-hidden="true" className="h-4 w-4" />
            {looking ? "Looking up..." : "Add or search"}
          </Button>
          <Button
            variant="outline"
            onClick={() => {
              // The scanner's dialog gives focus back to what had it when it opened: the scan field, for the next card.
              inputRef.current?.focus();
              setCamera(true);
            }}
          >
            <Camera aria-hidden="true" className="h-4 w-4" />
            Scan with camera
          </Button>
        </div>
      </form>
      {results ? (
        <div className="flex flex-col gap-2">
          {results.products.length === 0 ? (
            <>
              <p className="text-sm" role="status">
                {status === "loaded"
                  ? `No card in the catalogue matches "${results.q}".`
                  : "No barcode matches, and the catalogue is still loading: try the name again in a moment."}
              </p>
              {noMatch?.(results.q, add)}
            </>
          ) : (
            <ul aria-label={`Cards matching ${results.q}`} className="flex flex-col gap-1">
              {results.products.map((p) => (
                <li
                  key={p.id}
                  className="flex flex-wrap items-center justify-between gap-2 rounded-lg border border-gray-200 p-2 dark:border-gray-700"
                >
                  <span className="min-w-0 break-words text-sm">
                    <span className="font-semibold">{p.product_name}</span>
                    {p.set_name ? ` · ${p.set_name}` : ""} · {detail(p)}
                  </span>
                  <Button size="sm" aria-label={`Add ${p.product_name}`} onClick={() => add(p)}>
                    Add
                  </Button>
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      {camera ? (
        <Suspense fallback={<Spinner label="Loading the scanner" />}>
          <ScannerOverlay
            mode="lookup"
            onClose={() => setCamera(false)}
            onFound={(p) => {
              setCamera(false);
              onProduct(p);
            }}
          />
        </Suspense>
      ) : null}
    </div>
  );
}
