import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App, preloadFirstScreen } from "./app";
import "./styles.css";

// Before the first render: the first screen's code downloads beside the session check.
preloadFirstScreen();
const root = document.getElementById("root");
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

// The service worker (vite-plugin-pwa) in production builds: the app then installs on a phone's
// home screen and opens without the network. Development builds never register it.
if (import.meta.env.PROD && "serviceWorker" in navigator) {
  window.addEventListener("load", () => {
    navigator.serviceWorker
      .register("/sw.js", { scope: "/" })
      .catch((err: unknown) => console.error("Service worker registration failed", err));
  });
}
