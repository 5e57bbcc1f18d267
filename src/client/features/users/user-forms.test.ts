import { describe, expect, it } from "vitest";
import { creatableRoles, createUserFormSchema, resetPasswordFormSchema, statusChange } from "./user-forms";

describe("statusChange", () => {
  it("asks for the inverse state of another user", () => {
    expect(statusChange(1, { id: 2, is_active: true })).toEqual({ ok: true, id: 2, isActive: false });
    expect(statusChange(1, { id: 2, is_active: false })).toEqual({ ok: true, id: 2, isActive: true });
  });

  it("refuses one's own account with the spec's text", () => {
    expect(statusChange(5, { id: 5, is_active: true })).toEqual({ ok: false, message: "You cannot disable your own account!" });
  });
});

describe("creatableRoles", () => {
  it("offers super_admin only to a super_admin", () => {
    expect(creatableRoles("super_admin")).toEqual(["streamer", "inventory", "manager", "super_admin"]);
    expect(creatableRoles("manager")).toEqual(["streamer", "inventory", "manager"]);
  });
});

describe("createUserFormSchema", () => {
  const valid = { username: "  alice ", password: "secret1", confirmPassword: "secret1", role: "inventory" as const };

  it("gives the request body with a trimmed username", () => {
    expect(createUserFormSchema("manager").parse(valid)).toEqual({ username: "alice", password: "secret1", role: "inventory" });
  });

  it("checks in the spec's order and reports one message", () => {
    const messages = (values: typeof valid) => {
      const result = createUserFormSchema("manager").safeParse(values);
      return result.success ? [] : [...new Set(result.error.issues.map((i) => i.message))];
    };
    expect(messages({ ...valid, username: "", password: "", confirmPassword: "x" })).toEqual(["Username and password are required"]);
    expect(messages({ ...valid, password: "abc", confirmPassword: "abd" })).toEqual(["Passwords do not match"]);
    expect(messages({ ...valid, password: "abcde", confirmPassword: "abcde" })).toEqual(["Password must be at least 6 characters long"]);
  });

  it("refuses super_admin from a manager but not from a super_admin", () => {
    expect(createUserFormSchema("manager").safeParse({ ...valid, role: "super_admin" }).success).toBe(false);
    expect(createUserFormSchema("super_admin").safeParse({ ...valid, role: "super_admin" }).success).toBe(true);
  });
});

describe("resetPasswordFormSchema", () => {
  it("needs a password, a matching confirmation, then 6 characters", () => {
    const message = (newPassword: string, confirmPassword: string) => {
      const result = resetPasswordFormSchema.safeParse({ newPassword, confirmPassword });
      return result.success ? null : result.error.issues[0]?.message;
    };
    expect(message("", "")).toBe("New password is required");
    expect(message("abc", "abd")).toBe("Passwords do not match");
    expect(message("abc", "abc")).toBe("Password must be at least 6 characters long");
    expect(message("abcdef", "abcdef")).toBeNull();
  });
});
