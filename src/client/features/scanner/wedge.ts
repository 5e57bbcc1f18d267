/**
 * Keyboard-wedge barcode scanners "type" a code much faster than a person and end it with Enter.
 * The detector is fed every key press with its time and says when a burst was a scan.
 */
export interface WedgeOptions {
  /** Longest single gap between two keys of one scan (a slower key starts a new burst). */
  maxGapMs: number;
  /** Longest average gap over the whole burst, Enter included (scanners: 5-20 ms a key). */
  maxAverageGapMs: number;
  /** Codes shorter than this need the stricter average below (a quick "1234" is people's). */
  shortCodeLength: number;
  shortCodeMaxAverageGapMs: number;
  /** Shortest code taken as a scan. */
  minLength: number;
  /** The same code again within this time counts once. */
  dedupeMs: number;
}

/**
 * A person types at 100-250 ms a key and rarely keeps under 100 ms on average for 8 keys or
 * more; a scanner sends 5-20 ms a key. A busy phone or browser can delay single key events by
 * 100-250 ms, so late keys are tolerated while the burst stays fast on average (losing a
 * digit would look up a wrong code). Short codes need a stricter average.
 */
export const WEDGE_DEFAULTS: WedgeOptions = {
  maxGapMs: 300,
  maxAverageGapMs: 100,
  shortCodeLength: 8,
  shortCodeMaxAverageGapMs: 50,
  minLength: 4,
  dedupeMs: 2000,
};

export type WedgeResult =
  /** Not (yet) a scan: let the key do what it normally does. */
  | { kind: "none" }
  /** A complete scan: the caller should swallow the Enter and look the code up. */
  | { kind: "scan"; code: string }
  /** The same code as the last scan within dedupeMs: swallow the Enter, do nothing. */
  | { kind: "duplicate"; code: string };

export class WedgeDetector {
  private buffer = "";
  private burstStart = 0;
  private lastKeyAt = Number.NEGATIVE_INFINITY;
  private lastScan: { code: string; at: number } | null = null;
  private readonly options: WedgeOptions;

  constructor(options: Partial<WedgeOptions> = {}) {
    this.options = { ...WEDGE_DEFAULTS, ...options };
  }

  /** Feeds one key (KeyboardEvent.key) pressed at `time` (ms). */
  key(key: string, time: number): WedgeResult {
    const fast = time - this.lastKeyAt <= this.options.maxGapMs;
    if (key === "Enter") {
      const code = this.buffer;
      const averageGap = (time - this.burstStart) / Math.max(code.length, 1);
      const limit = code.length < this.options.shortCodeLength ? this.options.shortCodeMaxAverageGapMs : this.options.maxAverageGapMs;
      const complete = fast && code.length >= this.options.minLength && averageGap < limit;
      this.reset();
      if (!complete) return { kind: "none" };
      if (this.lastScan && this.lastScan.code === code && time - this.lastScan.at < this.options.dedupeMs) {
        return { kind: "duplicate", code };
      }
      this.lastScan = { code, at: time };
      return { kind: "scan", code };
    }
    if (key.length !== 1) {
      // Shift and other modifiers come with scanners' capital letters; anything else ends a burst.
      if (key !== "Shift") this.reset();
      return { kind: "none" };
    }
    // A slow key starts a new burst: only the fast tail before Enter counts.
    if (fast) {
      this.buffer += key;
    } else {
      this.buffer = key;
      this.burstStart = time;
    }
    this.lastKeyAt = time;
    return { kind: "none" };
  }

  reset(): void {
    this.buffer = "";
    this.lastKeyAt = Number.NEGATIVE_INFINITY;
  }
}

/** True when keys go to a text control, where typing is typing and never a scan. */
export function isTextEntry(element: Element | null): boolean {
  if (!element) return false;
  const tag = element.tagName;
  if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") return true;
  return (element as HTMLElement).isContentEditable === true;
}
