import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { logDestination, logFormat } from "./logging.js";

describe("log format", () => {
  it("is readable on a terminal and JSON anywhere else, unless LOG_FORMAT says which", () => {
    expect(logFormat("auto", true)).toBe("pretty");
    expect(logFormat("auto", false)).toBe("json");
    for (const tty of [true, false]) {
      expect(logFormat("json", tty)).toBe("json");
      expect(logFormat("pretty", tty)).toBe("pretty");
    }
  });

  it("LOG_FORMAT is auto unless set, and nothing but auto, json or pretty", () => {
    expect(loadConfig({}).LOG_FORMAT).toBe("auto");
    expect(loadConfig({ LOG_FORMAT: "json" }).LOG_FORMAT).toBe("json");
    expect(() => loadConfig({ LOG_FORMAT: "text" })).toThrow(/LOG_FORMAT/);
  });

  it("JSON keeps pino's own destination; pretty writes through pino-pretty", () => {
    expect(logDestination({ LOG_FORMAT: "auto" }, false)).toEqual({});
    expect(logDestination({ LOG_FORMAT: "json" }, true)).toEqual({});
    expect(logDestination({ LOG_FORMAT: "auto" }, true).stream).toBeDefined();
  });
});
