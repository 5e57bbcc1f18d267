import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import type { Role } from "../../../../contract/permissions";
import { createQueryClient } from "../../../lib/query-client";
import { CreateUserDialog } from "./create-user-dialog";
import { ResetPasswordDialog } from "./reset-password-dialog";

function withQueryClient(node: ReactNode) {
  return render(<QueryClientProvider client={createQueryClient()}>{node}</QueryClientProvider>);
}

function renderCreate(actorRole: Role = "manager") {
  withQueryClient(<CreateUserDialog actorRole={actorRole} onClose={() => {}} />);
  const dialog = screen.getByRole("dialog", { name: "Create New User" });
  return {
    dialog,
    username: within(dialog).getByLabelText("Username"),
    password: within(dialog).getByLabelText("Password"),
    confirm: within(dialog).getByLabelText("Confirm Password"),
    role: within(dialog).getByLabelText("Role") as HTMLSelectElement,
    submit: within(dialog).getByRole("button", { name: "Create User" }),
  };
}

describe("CreateUserDialog validation", () => {
  it("requires username and password, marks the missing fields, and clears the message on edit", async () => {
    const user = userEvent.setup();
    const f = renderCreate();
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Username and password are required");
    expect(f.username).toHaveAttribute("aria-invalid", "true");
    expect(f.password).toHaveAttribute("aria-invalid", "true");
    expect(f.username).toHaveAccessibleDescription("Username and password are required");

    await user.type(f.username, "alice");
    expect(screen.queryByRole("alert")).toBeNull();
    expect(f.username).not.toHaveAttribute("aria-invalid");

    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Username and password are required");
    expect(f.username).not.toHaveAttribute("aria-invalid");
    expect(f.password).toHaveAttribute("aria-invalid", "true");

    // A blank username counts as missing.
    await user.clear(f.username);
    await user.type(f.username, "   ");
    await user.type(f.password, "secret1");
    await user.type(f.confirm, "secret1");
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Username and password are required");
  });

  it("checks that the passwords match before their length", async () => {
    const user = userEvent.setup();
    const f = renderCreate();
    await user.type(f.username, "alice");
    await user.type(f.password, "abc");
    await user.type(f.confirm, "abd");
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Passwords do not match");
    expect(f.confirm).toHaveAttribute("aria-invalid", "true");

    await user.type(f.confirm, "x");
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("needs a password of at least 6 characters", async () => {
    const user = userEvent.setup();
    const f = renderCreate();
    await user.type(f.username, "alice");
    await user.type(f.password, "abcde");
    await user.type(f.confirm, "abcde");
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Password must be at least 6 characters long");
    expect(f.password).toHaveAttribute("aria-invalid", "true");
  });

  it("applies the contract's username rule before asking the server", async () => {
    const user = userEvent.setup();
    const f = renderCreate();
    await user.type(f.username, "no spaces allowed");
    await user.type(f.password, "abcdef");
    await user.type(f.confirm, "abcdef");
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Username must be 3-50 letters, digits, '.', '_' or '-'");
  });

  it("offers streamer (default), inventory and manager to a manager", () => {
    const f = renderCreate("manager");
    expect([...f.role.options].map((o) => [o.value, o.text])).toEqual([
      ["streamer", "Streamer"],
      ["inventory", "Inventory"],
      ["manager", "Manager"],
    ]);
    expect(f.role.value).toBe("streamer");
  });

  it("also offers Super Administrator to a super_admin", () => {
    const f = renderCreate("super_admin");
    expect([...f.role.options].map((o) => o.value)).toEqual(["streamer", "inventory", "manager", "super_admin"]);
    expect(within(f.role).getByRole("option", { name: "Super Administrator" })).toBeInTheDocument();
    expect(f.role.value).toBe("streamer");
  });

  it("shows the advisory strength of the password with its requirements", async () => {
    const user = userEvent.setup();
    const f = renderCreate();
    expect(screen.queryByRole("meter")).toBeNull();
    await user.type(f.password, "abcdefgh");
    const meter = screen.getByRole("meter", { name: "Password strength" });
    expect(meter).toHaveValue(2);
    expect(meter).toHaveAttribute("aria-valuetext", "Weak");
    const list = screen.getByRole("list", { name: "Password suggestions" });
    const items = within(list).getAllByRole("listitem");
    expect(items.map((li) => li.textContent)).toEqual([
      "At least 8 characters(met)",
      "Uppercase letter(not met)",
      "Lowercase letter(met)",
      "Number(not met)",
      "Special character(not met)",
    ]);
    expect(f.password).toHaveAccessibleDescription(expect.stringContaining("Weak"));

    await user.type(f.password, "A1!xyzwvut");
    expect(meter).toHaveAttribute("aria-valuetext", "Very Strong");
    expect(within(list).getAllByText("(met)")).toHaveLength(5);
  });
});

describe("ResetPasswordDialog validation", () => {
  function renderReset() {
    withQueryClient(<ResetPasswordDialog user={{ id: 7, username: "bob" }} onClose={() => {}} />);
    const dialog = screen.getByRole("dialog", { name: "Reset Password" });
    return {
      dialog,
      password: within(dialog).getByLabelText("New Password"),
      confirm: within(dialog).getByLabelText("Confirm New Password"),
      submit: within(dialog).getByRole("button", { name: "Reset Password" }),
    };
  }

  it("names the user whose password changes", () => {
    const f = renderReset();
    expect(f.dialog).toHaveAccessibleDescription(expect.stringContaining("bob"));
  });

  it("requires a new password, then a matching confirmation, then 6 characters; edits clear the message", async () => {
    const user = userEvent.setup();
    const f = renderReset();
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("New password is required");
    expect(f.password).toHaveAttribute("aria-invalid", "true");

    await user.type(f.password, "abc");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Passwords do not match");
    expect(f.confirm).toHaveAttribute("aria-invalid", "true");

    await user.type(f.confirm, "abc");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(f.submit);
    expect(screen.getByRole("alert")).toHaveTextContent("Password must be at least 6 characters long");
    expect(f.password).toHaveAttribute("aria-invalid", "true");
  });
});
