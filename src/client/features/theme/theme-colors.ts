/**
 * Where the theme is kept and the browser bar's colour per theme. public/theme-init.js (run
 * before the app, so a dark page never flashes light) and index.html repeat these values.
 */
export const THEME_STORAGE_KEY = "blez-theme";
export const THEME_COLOR = { dark: "#1a1a1a", light: "#2563eb" } as const;
