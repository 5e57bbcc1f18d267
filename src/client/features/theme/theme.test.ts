import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, nextTheme, parseTheme, readStoredTheme, resolveTheme, storeTheme } from "./theme";

afterEach(() => {
  localStorage.clear();
  document.documentElement.classList.remove("dark");
});

describe("theme", () => {
  it("cycles light -> dark -> system -> light", () => {
    expect(nextTheme("light")).toBe("dark");
    expect(nextTheme("dark")).toBe("system");
    expect(nextTheme("system")).toBe("light");
  });

  it("is stored under blez-theme and read back; anything else means system", () => {
    expect(readStoredTheme()).toBe("system");
    storeTheme("dark");
    expect(localStorage.getItem("blez-theme")).toBe("dark");
    expect(readStoredTheme()).toBe("dark");
    localStorage.setItem("blez-theme", "purple");
    expect(readStoredTheme()).toBe("system");
    expect(parseTheme(null)).toBe("system");
  });

  it("resolves system from the colour-scheme preference", () => {
    expect(resolveTheme("system", true)).toBe("dark");
    expect(resolveTheme("system", false)).toBe("light");
    expect(resolveTheme("light", true)).toBe("light");
    expect(resolveTheme("dark", false)).toBe("dark");
  });

  it("sets the dark class and the browser theme colour", () => {
    const meta = document.createElement("meta");
    meta.name = "theme-color";
    document.head.appendChild(meta);
    applyTheme("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(meta.content).toBe("#1a1a1a");
    applyTheme("light");
    expect(document.documentElement.classList.contains("dark")).toBe(false);
    expect(meta.content).toBe("#2563eb");
    meta.remove();
  });
});
