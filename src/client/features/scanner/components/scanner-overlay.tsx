import { CheckCircle2, TriangleAlert } from "lucide-react";
import { type FormEvent, useCallback, useRef, useState } from "react";
import type { Product } from "../../../../contract/products";
import { Button } from "../../../components/ui/button";
import { Dialog } from "../../../components/ui/dialog";
import { Input } from "../../../components/ui/field";
import { Spinner } from "../../../components/ui/spinner";
import { useProductStore } from "../../products";
import { LOOKUP_FAILED, notFoundMessage } from "../messages";
import { CameraView } from "./camera-view";

export interface ScannerOverlayProps {
  mode: "lookup" | "add";
  onClose: () => void;
  /**
   * Lookup mode: a product was found for the scanned or typed barcode (the caller usually
   * closes the overlay). Add mode: the user chose to edit the product that already has it.
   */
  onFound: (product: Product) => void;
  /** Add mode: no product has this barcode, so it can be added. */
  onNotFound?: (barcode: string) => void;
}

type Phase =
  | { kind: "scanning" }
  | { kind: "looking-up"; barcode: string }
  | { kind: "success"; product: Product }
  | { kind: "error"; message: string };

/** Camera and manual barcode entry; looks the code up and reports what it found. */
export function ScannerOverlay({ mode, onClose, onFound, onNotFound }: ScannerOverlayProps) {
  const store = useProductStore();
  const [phase, setPhase] = useState<Phase>({ kind: "scanning" });
  const [manual, setManual] = useState("");
  const busy = useRef(false);

  const handleCode = useCallback(
    async (raw: string) => {
      const barcode = raw.trim();
      if (!barcode || busy.current) return;
      busy.current = true;
      setPhase({ kind: "looking-up", barcode });
      try {
        const product = await store.lookup(barcode);
        if (product) {
          setPhase({ kind: "success", product });
          // In add mode the success view says the barcode is taken and offers the product.
          if (mode === "lookup") onFound(product);
        } else if (mode === "add" && onNotFound) {
          setPhase({ kind: "scanning" });
          onNotFound(barcode);
        } else {
          setPhase({ kind: "error", message: notFoundMessage(barcode) });
        }
      } catch (err) {
        console.error(LOOKUP_FAILED, err);
        setPhase({ kind: "error", message: LOOKUP_FAILED });
      } finally {
        busy.current = false;
      }
    },
    [store, mode, onFound, onNotFound],
  );

  function onManualSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!manual.trim()) return;
    void handleCode(manual);
  }

  function scanAgain() {
    setManual("");
    setPhase({ kind: "scanning" });
  }

  const scanning = phase.kind === "scanning" || phase.kind === "looking-up";

  return (
    <Dialog
      focusFirstField={false}
      onClose={onClose}
      title={mode === "add" ? "Scan to Add Product" : "Scan Barcode"}
      description="Point the camera at a barcode or type it in."
      size="md"
    >
      <div className="flex flex-col gap-4" data-testid="scanner-overlay">
        {scanning ? (
          <>
            <CameraView decoding={phase.kind === "scanning"} onDetected={(code) => void handleCode(code)} />
            <form onSubmit={onManualSubmit} className="flex flex-col gap-2">
              <label htmlFor="manual-barcode" className="text-sm font-medium">
                Enter barcode manually
              </label>
              <div className="flex gap-2">
                <Input
                  id="manual-barcode"
                  value={manual}
                  onChange={(e) => setManual(e.target.value)}
                  inputMode="text"
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  disabled={phase.kind === "looking-up"}
                  placeholder="e.g. 0123456789012"
                />
                <Button type="submit" disabled={phase.kind === "looking-up"} className="shrink-0">
                  Look Up Product
                </Button>
              </div>
            </form>
            {phase.kind === "looking-up" ? (
              <p className="flex items-center gap-2 text-sm">
                <Spinner label="Looking up" /> Looking up {phase.barcode}...
              </p>
            ) : null}
          </>
        ) : null}

        {phase.kind === "success" ? (
          <div className="flex flex-col items-center gap-3 py-4 text-center" role="status">
            <CheckCircle2 aria-hidden="true" className="h-12 w-12 text-green-700 dark:text-green-400" />
            <p className="text-lg font-bold">{mode === "add" ? "Product already in inventory" : "Product found"}</p>
            <p className="text-base">{phase.product.product_name}</p>
            <p className="text-sm text-gray-700 dark:text-gray-300">
              {phase.product.vendor} · <span className="font-mono">{phase.product.barcode}</span> · Stock {phase.product.quantity_on_hand}
            </p>
            {mode === "add" ? <p className="text-sm">A product with this barcode already exists. You can edit it instead.</p> : null}
            <div className="flex flex-wrap justify-center gap-2">
              <Button size="lg" onClick={scanAgain}>
                Scan Another Product
              </Button>
              {mode === "add" ? (
                <Button size="lg" variant="secondary" onClick={() => onFound(phase.product)}>
                  Edit Product
                </Button>
              ) : null}
            </div>
          </div>
        ) : null}

        {phase.kind === "error" ? (
          <div className="flex flex-col items-center gap-3 py-4 text-center">
            <TriangleAlert aria-hidden="true" className="h-12 w-12 text-amber-600 dark:text-amber-400" />
            <p role="alert" className="text-base font-semibold">
              {phase.message}
            </p>
            <div className="flex flex-wrap justify-center gap-2">
              <Button size="lg" onClick={scanAgain}>
                Try Again
              </Button>
              <Button size="lg" variant="secondary" onClick={onClose}>
                Close Scanner
              </Button>
            </div>
          </div>
        ) : null}
      </div>
    </Dialog>
  );
}
