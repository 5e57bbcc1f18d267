import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from "react";
import { applyTheme, nextTheme, prefersDark, type ResolvedTheme, readStoredTheme, storeTheme, type Theme } from "./theme";

interface ThemeState {
  theme: Theme;
  resolved: ResolvedTheme;
  setTheme: (theme: Theme) => void;
  cycleTheme: () => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

function useSystemDark(): boolean {
  const [dark, setDark] = useState(prefersDark);
  useEffect(() => {
    if (typeof matchMedia !== "function") return;
    const query = matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => setDark(query.matches);
    query.addEventListener("change", onChange);
    return () => query.removeEventListener("change", onChange);
  }, []);
  return dark;
}

export function ThemeProvider({ children }: { children: ReactNode }) {
  const [theme, setThemeState] = useState<Theme>(readStoredTheme);
  const systemDark = useSystemDark();
  const resolved: ResolvedTheme = theme === "system" ? (systemDark ? "dark" : "light") : theme;

  useEffect(() => applyTheme(resolved), [resolved]);

  const setTheme = useCallback((next: Theme) => {
    storeTheme(next);
    setThemeState(next);
  }, []);
  const cycleTheme = useCallback(() => {
    setThemeState((current) => {
      const next = nextTheme(current);
      storeTheme(next);
      return next;
    });
  }, []);

  const value = useMemo(() => ({ theme, resolved, setTheme, cycleTheme }), [theme, resolved, setTheme, cycleTheme]);
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error("useTheme outside ThemeProvider");
  return state;
}
