import { Flashlight, FlashlightOff } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import { inputClassName } from "../../../components/ui/field";
import { SCANNER_BOX_PX, SCANNER_FPS } from "../../../lib/ui-timings";
import { createDetector, type Detector } from "../detector";
import { CAMERA_DENIED } from "../messages";

interface CameraViewProps {
  /** While false the camera stays on but nothing is decoded (e.g. during a lookup). */
  decoding: boolean;
  onDetected: (code: string) => void;
}

interface TorchCapabilities extends MediaTrackCapabilities {
  torch?: boolean;
}

/** Spec's camera message: anything about camera permission reads as the 'Camera access denied' text. */
export function cameraErrorMessage(err: unknown): string {
  const name = err instanceof DOMException || err instanceof Error ? err.name : "";
  const message = err instanceof Error ? err.message : String(err);
  if (name === "NotAllowedError" || name === "SecurityError" || /Camera access|Permission/i.test(message)) {
    return CAMERA_DENIED;
  }
  if (name === "NotFoundError" || name === "OverconstrainedError") return "No camera found. Enter the barcode below.";
  if (name === "NotReadableError") return "The camera is in use by another app. Enter the barcode below.";
  return "The camera could not be started. Enter the barcode below.";
}

/** The camera picture with a 250x250 scan box; decodes 10 times a second. */
export function CameraView({ decoding, onDetected }: CameraViewProps) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const [deviceId, setDeviceId] = useState<string | undefined>(undefined);
  const [devices, setDevices] = useState<MediaDeviceInfo[]>([]);
  const [error, setError] = useState<string | null>(null);
  const [torchSupported, setTorchSupported] = useState(false);
  const [torchOn, setTorchOn] = useState(false);
  const [track, setTrack] = useState<MediaStreamTrack | null>(null);
  const detectedRef = useRef(onDetected);
  detectedRef.current = onDetected;
  const decodingRef = useRef(decoding);
  decodingRef.current = decoding;

  // Start the camera (again when another one is chosen).
  useEffect(() => {
    let stopped = false;
    let stream: MediaStream | null = null;
    setError(null);
    (async () => {
      if (!navigator.mediaDevices?.getUserMedia) {
        setError("The camera needs a secure (HTTPS) connection. Enter the barcode below.");
        return;
      }
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          audio: false,
          video: deviceId ? { deviceId: { exact: deviceId } } : { facingMode: { ideal: "environment" } },
        });
        if (stopped) {
          for (const t of stream.getTracks()) t.stop();
          return;
        }
        const video = videoRef.current;
        if (video) {
          video.srcObject = stream;
          await video.play().catch(() => undefined);
        }
        const videoTrack = stream.getVideoTracks()[0] ?? null;
        setTrack(videoTrack);
        const caps = (videoTrack?.getCapabilities?.() ?? {}) as TorchCapabilities;
        setTorchSupported(caps.torch === true);
        setTorchOn(false);
        const all = await navigator.mediaDevices.enumerateDevices();
        if (!stopped) setDevices(all.filter((d) => d.kind === "videoinput"));
      } catch (err) {
        if (!stopped) setError(cameraErrorMessage(err));
      }
    })();
    return () => {
      stopped = true;
      if (stream) for (const t of stream.getTracks()) t.stop();
      setTrack(null);
    };
  }, [deviceId]);

  // Decode 10 frames a second while the camera runs.
  useEffect(() => {
    if (!track) return;
    let detector: Detector | null = null;
    let busy = false;
    let stopped = false;
    createDetector()
      .then((d) => {
        detector = d;
      })
      .catch((err: unknown) => console.error("Barcode detector unavailable", err));
    const timer = window.setInterval(async () => {
      const video = videoRef.current;
      if (stopped || busy || !detector || !decodingRef.current || !video || video.readyState < 2) return;
      busy = true;
      try {
        const found = await detector.detect(video);
        const code = found.find((b) => b.rawValue.trim())?.rawValue.trim();
        if (code && !stopped && decodingRef.current) detectedRef.current(code);
      } catch {
        // a frame that cannot be read: try the next one
      } finally {
        busy = false;
      }
    }, 1000 / SCANNER_FPS);
    return () => {
      stopped = true;
      window.clearInterval(timer);
    };
  }, [track]);

  async function toggleTorch() {
    if (!track) return;
    const next = !torchOn;
    try {
      await track.applyConstraints({ advanced: [{ torch: next } as MediaTrackConstraintSet] });
      setTorchOn(next);
    } catch {
      setTorchSupported(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <div className="relative aspect-square w-full overflow-hidden rounded-lg bg-black sm:aspect-video">
        <video
          ref={videoRef}
          className="h-full w-full object-cover"
          muted
          playsInline
          autoPlay
          aria-label="Camera view"
          data-testid="camera-video"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute left-1/2 top-1/2 max-h-[80%] max-w-[80%] -translate-x-1/2 -translate-y-1/2 rounded-lg border-4 border-white/90 shadow-[0_0_0_9999px_rgba(0,0,0,0.35)]"
          style={{ width: SCANNER_BOX_PX, height: SCANNER_BOX_PX }}
        />
        {error ? (
          <p
            role="alert"
            className="absolute inset-x-3 bottom-3 rounded-lg bg-white p-3 text-sm font-medium text-red-800 dark:bg-gray-900 dark:text-red-200"
          >
            {error}
          </p>
        ) : null}
      </div>
      {devices.length > 1 || torchSupported ? (
        <div className="flex flex-wrap items-center gap-2">
          {devices.length > 1 ? (
            <label className="flex min-w-0 flex-1 items-center gap-2 text-sm font-medium">
              Camera
              <select
                className={`${inputClassName} border-gray-400 dark:border-gray-600`}
                value={deviceId ?? track?.getSettings().deviceId ?? ""}
                onChange={(e) => setDeviceId(e.target.value || undefined)}
              >
                {devices.map((d, i) => (
                  <option key={d.deviceId || i} value={d.deviceId}>
                    {d.label || `Camera ${i + 1}`}
                  </option>
                ))}
              </select>
            </label>
          ) : null}
          {torchSupported ? (
            <Button variant="outline" onClick={() => void toggleTorch()} aria-pressed={torchOn}>
              {torchOn ? <FlashlightOff aria-hidden="true" className="h-4 w-4" /> : <Flashlight aria-hidden="true" className="h-4 w-4" />}
              {torchOn ? "Light off" : "Light on"}
            </Button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
