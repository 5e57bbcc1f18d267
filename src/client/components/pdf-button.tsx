import { FileText } from "lucide-react";
import { useState } from "react";
import { downloadBlob } from "../lib/download";
import { messageOr } from "../lib/http";
import { Button, type ButtonProps } from "./ui/button";

export interface PdfButtonProps {
  /** What the button says ("Print receipt"), and while the PDF is made ("Making the receipt..."). */
  label: string;
  busyLabel: string;
  /** Said when making it fails and the error has no message of its own. */
  failure: string;
  filename: string;
  /** Makes the PDF (pdf-lib loads only then). */
  make: () => Promise<Uint8Array>;
  variant?: ButtonProps["variant"];
}

/** A button that makes a PDF in the browser and downloads it, and says so when that fails: receipts, the stock take report. */
export function PdfButton({ label, busyLabel, failure, filename, make, variant }: PdfButtonProps) {
  const [making, setMaking] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const download = async () => {
    setMaking(true);
    setFailed(null);
    try {
      const pdf = await make();
      downloadBlob(filename, new Blob([pdf as Uint8Array<ArrayBuffer>], { type: "application/pdf" }));
    } catch (err) {
      setFailed(messageOr(err, failure));
    } finally {
      setMaking(false);
    }
  };
  return (
    <>
      {failed ? (
        <p role="alert" className="basis-full font-medium text-red-800 dark:text-red-200">
          {failed}
        </p>
      ) : null}
      <Button variant={variant} onClick={() => void download()} disabled={making}>
        <FileText aria-hidden="true" className="h-4 w-4" />
        {making ? busyLabel : label}
      </Button>
    </>
  );
}
