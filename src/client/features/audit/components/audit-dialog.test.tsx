import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { AuditDialogView } from "./audit-dialog";

describe("AuditDialogView", () => {
  it("tells users without product management that they have no access, and loads nothing", () => {
    render(<AuditDialogView allowed={false} onClose={() => {}} />);
    expect(screen.getByRole("dialog", { name: "Audit Trail" })).toBeInTheDocument();
    expect(screen.getByRole("alert")).toHaveTextContent("Access Denied");
    expect(screen.getByText("You don't have permission to view audit logs.")).toBeInTheDocument();
    expect(screen.queryByRole("tab")).toBeNull();
  });
});
