import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { User } from "../../../../contract/users";
import { createQueryClient } from "../../../lib/query-client";
import { UserCard } from "./user-card";
import { UserManagement } from "./users-view";

describe("UserManagement", () => {
  it("tells users without canManageUsers that access is denied, and asks the server for nothing", () => {
    const queryClient = createQueryClient();
    render(
      <QueryClientProvider client={queryClient}>
        <UserManagement viewer={{ id: 3, role: "inventory" }} canManageUsers={false} />
      </QueryClientProvider>,
    );
    expect(screen.getByRole("heading", { name: "Access Denied" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("You don't have permission to manage users.");
    expect(screen.queryByRole("button", { name: "Create New User" })).toBeNull();
    expect(screen.queryByRole("heading", { name: "User Management" })).toBeNull();
    expect(queryClient.getQueryCache().getAll()).toHaveLength(0);
  });
});

const noop = () => {};
const user = (over: Partial<User>): User => ({
  id: 10,
  username: "casey",
  role: "streamer",
  is_active: true,
  created_at: "2026-11-22T12:00:00.000Z",
  ...over,
});

describe("UserCard", () => {
  it("shows name, role label, state and creation date, with both actions for another user", () => {
    render(<UserCard user={user({})} viewer={{ id: 1, role: "manager" }} onToggleStatus={noop} onResetPassword={noop} />);
    const card = screen.getByRole("article", { name: "casey" });
    expect(within(card).getByText("Streamer")).toBeInTheDocument();
    expect(within(card).getByText("Active")).toBeInTheDocument();
    expect(within(card).getByText("Nov 22, 2026")).toHaveAttribute("dateTime", "2026-11-22T12:00:00.000Z");
    expect(within(card).getByRole("button", { name: "Disable casey" })).toBeEnabled();
    expect(within(card).getByRole("button", { name: "Reset Password for casey" })).toBeEnabled();
    expect(within(card).queryByText("Protected")).toBeNull();
  });

  it("offers Enable on a disabled user", () => {
    render(<UserCard user={user({ is_active: false })} viewer={{ id: 1, role: "manager" }} onToggleStatus={noop} onResetPassword={noop} />);
    expect(screen.getByText("Disabled")).toBeInTheDocument();
    expect(screen.getByRole("button", { name: "Enable casey" })).toBeInTheDocument();
  });

  it("own card: no actions, 'This is your account'", () => {
    render(
      <UserCard
        user={user({ id: 1, role: "super_admin" })}
        viewer={{ id: 1, role: "super_admin" }}
        onToggleStatus={noop}
        onResetPassword={noop}
      />,
    );
    expect(screen.getByText("This is your account")).toBeInTheDocument();
    expect(screen.getByText("Protected")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("a super_admin card seen by a manager is protected, with no actions", () => {
    render(
      <UserCard user={user({ role: "super_admin" })} viewer={{ id: 1, role: "manager" }} onToggleStatus={noop} onResetPassword={noop} />,
    );
    expect(screen.getByText("Super Administrator")).toBeInTheDocument();
    expect(screen.getByText("Protected")).toBeInTheDocument();
    expect(screen.getByText("This account is protected and can only be modified by other super administrators.")).toBeInTheDocument();
    expect(screen.queryByRole("button")).toBeNull();
  });

  it("another super_admin's card seen by a super_admin is marked Protected but has its actions", () => {
    render(
      <UserCard
        user={user({ role: "super_admin" })}
        viewer={{ id: 1, role: "super_admin" }}
        onToggleStatus={noop}
        onResetPassword={noop}
      />,
    );
    expect(screen.getByText("Protected")).toBeInTheDocument();
    expect(screen.queryByText("This account is protected and can only be modified by other super administrators.")).toBeNull();
    expect(screen.getByRole("button", { name: "Disable casey" })).toBeInTheDocument();
  });
});
