import { PdfButton } from "../../../components/pdf-button";

/** "Print receipt": makes the receipt's PDF (`make`), downloads it as `filename`, and says so when it fails. */
export function PrintReceiptButton({ filename, make }: { filename: string; make: () => Promise<Uint8Array> }) {
  return (
    <PdfButton
      label="Print receipt"
      busyLabel="Making the receipt..."
      failure="Failed to make the receipt"
      filename={filename}
      make={make}
    />
  );
}
