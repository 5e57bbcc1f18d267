import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../lib/query-client";
import { ThemeProvider } from "../../theme";
import { AuthProvider } from "../hooks/use-auth";
import { LoginScreen } from "./login-screen";

function renderLogin() {
  return render(
    <ThemeProvider>
      <QueryClientProvider client={createQueryClient()}>
        <AuthProvider>
          <LoginScreen />
        </AuthProvider>
      </QueryClientProvider>
    </ThemeProvider>,
  );
}

describe("LoginScreen", () => {
  it("asks for both fields before calling the server, and clears the message on edit", async () => {
    const user = userEvent.setup();
    renderLogin();
    expect(screen.getByRole("heading", { name: "Blez Inventory" })).toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter both username and password");

    await user.type(screen.getByLabelText("Username"), "alice");
    expect(screen.queryByRole("alert")).toBeNull();
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter both username and password");

    await user.clear(screen.getByLabelText("Username"));
    await user.type(screen.getByLabelText("Username"), "   ");
    await user.type(screen.getByLabelText("Password"), "secret");
    await user.click(screen.getByRole("button", { name: "Login" }));
    expect(screen.getByRole("alert")).toHaveTextContent("Please enter both username and password");
  });

  it("has a theme toggle", () => {
    renderLogin();
    expect(screen.getByRole("button", { name: /^Theme:/ })).toBeInTheDocument();
  });
});
