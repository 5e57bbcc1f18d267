import { FileText } from "lucide-react";
import { useState } from "react";
import { Button } from "../../../components/ui/button";
import { downloadBlob } from "../../../lib/download";
import { messageOr } from "../../../lib/http";

/** "Print receipt": makes the PDF (`make`), downloads it as `filename`, and says so when it fails. */
export function PrintReceiptButton({ filename, make }: { filename: string; make: () => Promise<Uint8Array> }) {
  const [printing, setPrinting] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const print = async () => {
    setPrinting(true);
    setFailed(null);
    try {
      const pdf = await make();
      downloadBlob(filename, new Blob([pdf as Uint8Array<ArrayBuffer>], { type: "application/pdf" }));
    } catch (err) {
      setFailed(messageOr(err, "Failed to make the receipt"));
    } finally {
      setPrinting(false);
    }
  };
  return (
    <>
      {failed ? (
        <p role="alert" className="basis-full font-medium text-red-800 dark:text-red-200">
          {failed}
        </p>
      ) : null}
      <Button onClick={() => void print()} disabled={printing}>
        <FileText aria-hidden="true" className="h-4 w-4" />
        {printing ? "Making the receipt..." : "Print receipt"}
      </Button>
    </>
  );
}
