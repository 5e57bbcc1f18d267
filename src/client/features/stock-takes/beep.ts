import type { ScanResult } from "../../../contract/stock-takes";

/** A tone per answer, so a counter hears what a scan found without looking: high for found, low for unknown. */
const TONES: Record<ScanResult | "question" | "queued", { frequency: number; ms: number; repeat: number }> = {
  found: { frequency: 1320, ms: 90, repeat: 1 },
  new_to_location: { frequency: 880, ms: 90, repeat: 2 },
  unknown: { frequency: 220, ms: 300, repeat: 1 },
  already_counted: { frequency: 660, ms: 120, repeat: 2 },
  question: { frequency: 520, ms: 160, repeat: 1 },
  queued: { frequency: 990, ms: 60, repeat: 1 },
};

let context: AudioContext | null = null;

/** A short beep for `kind` through Web Audio; silent (never throws) where audio is unavailable or blocked. */
export function beep(kind: keyof typeof TONES): void {
  try {
    const Ctor = globalThis.AudioContext ?? (globalThis as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctor) return;
    context ??= new Ctor();
    const ctx = context;
    if (ctx.state === "suspended") void ctx.resume().catch(() => {});
    const tone = TONES[kind];
    for (let i = 0; i < tone.repeat; i++) {
      const start = ctx.currentTime + i * ((tone.ms * 1.6) / 1000);
      const oscillator = ctx.createOscillator();
      const gain = ctx.createGain();
      oscillator.type = kind === "unknown" ? "square" : "sine";
      oscillator.frequency.value = tone.frequency;
      gain.gain.setValueAtTime(0.15, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + tone.ms / 1000);
      oscillator.connect(gain).connect(ctx.destination);
      oscillator.start(start);
      oscillator.stop(start + tone.ms / 1000);
    }
  } catch {
    // No audio here (a test page, a locked-down browser): the colour and the text say it.
  }
}
