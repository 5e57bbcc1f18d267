import { Check, X } from "lucide-react";
import { cn } from "../../../lib/cn";
import { MAX_STRENGTH_SCORE, PASSWORD_REQUIREMENTS, type StrengthLevel, scorePassword } from "../password-strength";

const LEVEL_STYLE: Record<StrengthLevel, { bar: string; text: string }> = {
  Weak: { bar: "bg-red-600 dark:bg-red-400", text: "text-red-700 dark:text-red-300" },
  Medium: { bar: "bg-amber-500 dark:bg-amber-400", text: "text-amber-800 dark:text-amber-300" },
  Strong: { bar: "bg-green-600 dark:bg-green-400", text: "text-green-800 dark:text-green-300" },
  "Very Strong": { bar: "bg-emerald-700 dark:bg-emerald-300", text: "text-emerald-800 dark:text-emerald-300" },
};

export interface PasswordStrengthMeterProps {
  password: string;
  /** Id of the element, so the password input can point at it with aria-describedby. */
  id: string;
}

/**
 * Advisory strength of a password: a level word, a bar, and the requirements list
 * with met/unmet shown by icon and words (never by colour alone). Never blocks a submit.
 */
export function PasswordStrengthMeter({ password, id }: PasswordStrengthMeterProps) {
  if (!password) return null;
  const { score, level, checks } = scorePassword(password);
  const style = LEVEL_STYLE[level];
  return (
    <div id={id} className="flex flex-col gap-2 text-sm" data-testid="password-strength">
      <div className="flex items-center gap-3">
        <meter className="sr-only" aria-label="Password strength" min={0} max={MAX_STRENGTH_SCORE} value={score} aria-valuetext={level} />
        <div aria-hidden="true" className="h-2 flex-1 overflow-hidden rounded-full bg-gray-200 dark:bg-gray-700">
          <div
            className={cn("h-full rounded-full transition-[width]", style.bar)}
            style={{ width: `${(score / MAX_STRENGTH_SCORE) * 100}%` }}
          />
        </div>
        <p className={cn("shrink-0 font-semibold", style.text)} aria-live="polite">
          <span className="sr-only">Password strength: </span>
          {level}
        </p>
      </div>
      <ul aria-label="Password suggestions" className="grid grid-cols-1 gap-1 sm:grid-cols-2">
        {PASSWORD_REQUIREMENTS.map(({ check, label }) => {
          const met = checks[check];
          const Icon = met ? Check : X;
          return (
            <li
              key={check}
              data-met={met}
              className={cn("flex items-center gap-1.5", met ? "text-green-800 dark:text-green-300" : "text-gray-700 dark:text-gray-300")}
            >
              <Icon aria-hidden="true" className="h-4 w-4 shrink-0" />
              <span>{label}</span>
              <span className="sr-only">{met ? "(met)" : "(not met)"}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
