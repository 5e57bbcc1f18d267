import { describe, expect, it } from "vitest";
import { errorText, failureText, NON_TEXT_ERROR_MESSAGE, toastDuration, UNKNOWN_ERROR_MESSAGE } from "./notify";

describe("notify", () => {
  it("an empty error reads 'An unknown error occurred'", () => {
    expect(UNKNOWN_ERROR_MESSAGE).toBe("An unknown error occurred");
    expect(errorText("")).toBe("An unknown error occurred");
    expect(errorText("  ")).toBe("An unknown error occurred");
    expect(errorText(new Error(""))).toBe("An unknown error occurred");
    expect(errorText(null)).toBe("An unknown error occurred");
    expect(errorText(new Error("Insufficient stock"))).toBe("Insufficient stock");
    expect(errorText("Failed to update quantity")).toBe("Failed to update quantity");
  });

  it("an error that is not text reads 'Error occurred'", () => {
    expect(NON_TEXT_ERROR_MESSAGE).toBe("Error occurred");
    expect(errorText({ code: 42 })).toBe("Error occurred");
    expect(errorText(42)).toBe("Error occurred");
  });

  it("0 or less means no auto-dismiss", () => {
    expect(toastDuration(0)).toBe(Number.POSITIVE_INFINITY);
    expect(toastDuration(-5)).toBe(Number.POSITIVE_INFINITY);
    expect(toastDuration(3000)).toBe(3000);
  });

  it("a failure reads the spec's message, then the server's reason", () => {
    expect(failureText("Failed to create user", new Error("Username already exists"))).toBe(
      "Failed to create user: Username already exists",
    );
    expect(failureText("Failed to create user", new Error(""))).toBe("Failed to create user");
    expect(failureText("Failed to create user", new Error("Failed to create user"))).toBe("Failed to create user");
    expect(failureText("Failed to create user", "text")).toBe("Failed to create user");
  });
});
