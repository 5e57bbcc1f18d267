/**
 * Password strength: advisory only, it never blocks a submit.
 * Seven checks worth one point each; score up to 2 is Weak, up to 4 Medium,
 * up to 6 Strong, 7 Very Strong. Pure functions, no React.
 */

export const STRENGTH_CHECKS = ["length8", "length12", "length16", "uppercase", "lowercase", "digit", "special"] as const;
export type StrengthCheck = (typeof STRENGTH_CHECKS)[number];

export type StrengthLevel = "Weak" | "Medium" | "Strong" | "Very Strong";

export interface PasswordStrength {
  /** 0 to 7. */
  score: number;
  level: StrengthLevel;
  checks: Record<StrengthCheck, boolean>;
}

export const MAX_STRENGTH_SCORE = STRENGTH_CHECKS.length;

/** Length in characters as people count them (code points, so an emoji is one). */
function charCount(password: string): number {
  return [...password].length;
}

export function strengthChecks(password: string): Record<StrengthCheck, boolean> {
  const length = charCount(password);
  return {
    length8: length >= 8,
    length12: length >= 12,
    length16: length >= 16,
    uppercase: /\p{Lu}/u.test(password),
    lowercase: /\p{Ll}/u.test(password),
    digit: /\p{Nd}/u.test(password),
    // Anything that is neither a letter nor a number (punctuation, symbols, spaces).
    special: /[^\p{L}\p{N}]/u.test(password),
  };
}

export function strengthLevel(score: number): StrengthLevel {
  if (score <= 2) return "Weak";
  if (score <= 4) return "Medium";
  if (score <= 6) return "Strong";
  return "Very Strong";
}

export function scorePassword(password: string): PasswordStrength {
  const checks = strengthChecks(password);
  const score = STRENGTH_CHECKS.filter((c) => checks[c]).length;
  return { score, level: strengthLevel(score), checks };
}

/** The requirements list under a password field (spec: 8 characters, uppercase, lowercase, number, special character). */
export const PASSWORD_REQUIREMENTS: ReadonlyArray<{ check: StrengthCheck; label: string }> = [
  { check: "length8", label: "At least 8 characters" },
  { check: "uppercase", label: "Uppercase letter" },
  { check: "lowercase", label: "Lowercase letter" },
  { check: "digit", label: "Number" },
  { check: "special", label: "Special character" },
];
