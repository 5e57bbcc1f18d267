import "@testing-library/jest-dom/vitest";
import { cleanup } from "@testing-library/react";
import { afterEach } from "vitest";

// Test files share one jsdom per worker (isolate: false), so each test ends with the document as
// it began: nothing rendered, nothing added to <head> (the theme colour), no class on <html>,
// nothing stored. (A few files run in node, without a document.)
if (typeof document !== "undefined") {
  const initialHead = document.head.innerHTML;
  const initialHtmlClass = document.documentElement.className;
  afterEach(() => {
    cleanup();
    document.head.innerHTML = initialHead;
    document.documentElement.className = initialHtmlClass;
    localStorage.clear();
    sessionStorage.clear();
  });
}
