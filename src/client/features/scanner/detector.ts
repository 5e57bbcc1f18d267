import { type BarcodeFormat, prepareZXingModule, BarcodeDetector as ZXingBarcodeDetector } from "barcode-detector/ponyfill";
import wasmUrl from "zxing-wasm/reader/zxing_reader.wasm?url";

/** What a scanner can decode; shop barcodes are EAN/UPC, labels Code 128/39, some QR. */
export const FORMATS: BarcodeFormat[] = ["ean_13", "ean_8", "upc_a", "upc_e", "code_128", "code_39", "itf", "qr_code"];

export interface Detector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}

let prepared = false;

/** ZXing's WebAssembly from our own assets (CSP allows only 'self'), fetched when first needed. */
function prepareWasm() {
  if (prepared) return;
  prepared = true;
  prepareZXingModule({
    overrides: { locateFile: (path: string, prefix: string) => (path.endsWith(".wasm") ? wasmUrl : prefix + path) },
    fireImmediately: true,
  }).catch((err: unknown) => {
    prepared = false;
    console.error("Failed to load the barcode decoder", err);
  });
}

interface NativeDetectorClass {
  new (options: { formats: string[] }): Detector;
  getSupportedFormats(): Promise<string[]>;
}

/** The browser's own BarcodeDetector where it has one for our formats, else the ZXing ponyfill. */
export async function createDetector(): Promise<Detector> {
  const Native = (globalThis as { BarcodeDetector?: NativeDetectorClass }).BarcodeDetector;
  if (Native) {
    try {
      const supported = await Native.getSupportedFormats();
      const formats = FORMATS.filter((f) => supported.includes(f));
      if (formats.includes("ean_13")) return new Native({ formats });
    } catch {
      // fall through to ZXing
    }
  }
  prepareWasm();
  return new ZXingBarcodeDetector({ formats: FORMATS });
}
