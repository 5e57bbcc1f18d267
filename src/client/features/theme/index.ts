export { ThemeToggle } from "./theme-toggle";
export { ThemeProvider, useTheme } from "./use-theme";
