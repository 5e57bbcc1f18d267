import { Volume2, VolumeX } from "lucide-react";
import { useState } from "react";
import { cn } from "../../../lib/cn";
import { readFeedbackEnabled, storeFeedbackEnabled } from "../feedback";

/** Sound and vibration on/off, remembered on this device. */
export function FeedbackSwitch() {
  const [on, setOn] = useState(readFeedbackEnabled);
  return (
    <button
      type="button"
      role="switch"
      aria-checked={on}
      onClick={() => {
        storeFeedbackEnabled(!on);
        setOn(!on);
      }}
      className="inline-flex h-9 items-center gap-2 rounded-full border border-gray-300 px-3 text-sm font-medium text-gray-800 hover:bg-gray-100 focus-visible:outline-2 focus-visible:outline-blue-600 dark:border-gray-600 dark:text-gray-100 dark:hover:bg-gray-800"
    >
      {on ? <Volume2 aria-hidden="true" className="h-4 w-4" /> : <VolumeX aria-hidden="true" className="h-4 w-4" />}
      Sound &amp; vibration
      <span
        aria-hidden="true"
        className={cn(
          "relative h-5 w-9 rounded-full transition-colors",
          on ? "bg-blue-700 dark:bg-blue-500" : "bg-gray-400 dark:bg-gray-600",
        )}
      >
        <span className={cn("absolute top-0.5 h-4 w-4 rounded-full bg-white transition-all", on ? "left-[1.125rem]" : "left-0.5")} />
      </span>
    </button>
  );
}
