import { Monitor, Moon, Sun } from "lucide-react";
import { Button } from "../../components/ui/button";
import { nextTheme, THEME_LABELS } from "./theme";
import { useTheme } from "./use-theme";

const ICONS = { light: Sun, dark: Moon, system: Monitor };

/** Cycles light -> dark -> system; the label says the current choice and the next one. */
export function ThemeToggle({ className }: { className?: string }) {
  const { theme, cycleTheme } = useTheme();
  const Icon = ICONS[theme];
  return (
    <Button
      variant="ghost"
      size="icon"
      onClick={cycleTheme}
      className={className}
      aria-label={`Theme: ${THEME_LABELS[theme]}. Switch to ${THEME_LABELS[nextTheme(theme)]}`}
      title={`Theme: ${THEME_LABELS[theme]}`}
      data-theme-choice={theme}
    >
      <Icon aria-hidden="true" className="h-5 w-5" />
    </Button>
  );
}
