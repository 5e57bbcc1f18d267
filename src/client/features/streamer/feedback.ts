/** Sound and vibration on scan and sale, switchable (kept in localStorage). */
export const FEEDBACK_STORAGE_KEY = "blez-feedback";

export type FeedbackKind = "scan" | "sale" | "add" | "error";

export function readFeedbackEnabled(): boolean {
  try {
    return localStorage.getItem(FEEDBACK_STORAGE_KEY) !== "off";
  } catch {
    return true;
  }
}

export function storeFeedbackEnabled(on: boolean): void {
  try {
    localStorage.setItem(FEEDBACK_STORAGE_KEY, on ? "on" : "off");
  } catch {
    // storage unavailable: the choice lasts for this page
  }
}

const TONES: Record<FeedbackKind, { freq: number[]; vibrate: number[] }> = {
  scan: { freq: [1320], vibrate: [40] },
  sale: { freq: [880, 1175], vibrate: [60] },
  add: { freq: [660, 990], vibrate: [30, 40, 30] },
  error: { freq: [220], vibrate: [120, 60, 120] },
};

let audio: AudioContext | null = null;

export function playFeedback(kind: FeedbackKind): void {
  if (!readFeedbackEnabled()) return;
  const tone = TONES[kind];
  try {
    navigator.vibrate?.(tone.vibrate);
  } catch {
    // not supported
  }
  try {
    const Ctx = window.AudioContext ?? (window as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Ctx) return;
    audio ??= new Ctx();
    if (audio.state === "suspended") void audio.resume();
    let at = audio.currentTime;
    for (const freq of tone.freq) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      osc.type = "sine";
      gain.gain.setValueAtTime(0.001, at);
      gain.gain.exponentialRampToValueAtTime(0.2, at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.001, at + 0.09);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + 0.1);
      at += 0.1;
    }
  } catch {
    // audio unavailable
  }
}
