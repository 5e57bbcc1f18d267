// Applies the stored theme before the app renders, so a dark page never flashes light.
(() => {
  var theme = "system";
  try {
    theme = localStorage.getItem("blez-theme") || "system";
  } catch {
    // storage unavailable: follow the system
  }
  var dark = theme === "dark" || (theme !== "light" && window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches);
  var root = document.documentElement;
  if (dark) root.classList.add("dark");
  root.style.colorScheme = dark ? "dark" : "light";
  var meta = document.querySelector('meta[name="theme-color"]');
  if (meta) meta.setAttribute("content", dark ? "#1a1a1a" : "#2563eb");
})();
