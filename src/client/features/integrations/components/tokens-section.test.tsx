import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { render, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ApiToken, CreatedToken } from "../../../../contract/tokens";
import { TokensSection } from "./tokens-section";

const token = (over: Partial<ApiToken>): ApiToken => ({
  id: 1,
  name: "Web store",
  scopes: ["products:read", "orders:write"],
  prefix: "blez_abcdef",
  created_by: "morgan",
  created_at: "2026-03-14T15:04:00.000Z",
  last_used_at: null,
  revoked_at: null,
  channels: null,
  maker: { id: 7, username: "morgan", role: "manager", is_active: true },
  effective_scopes: ["products:read", "orders:write"],
  state: "active",
  ...over,
});

const active = token({ id: 1, name: "Web store", channels: ["web", "ebay"], last_used_at: "2026-03-15T09:00:00.000Z" });
const limited = token({
  id: 2,
  name: "Marketplace",
  scopes: ["products:read", "products:write", "orders:write"],
  maker: { id: 8, username: "sam", role: "inventory", is_active: true },
  effective_scopes: ["products:read", "products:write"],
  state: "limited",
});
const makerDisabled = token({
  id: 3,
  name: "Old script",
  scopes: ["quantity:write"],
  maker: { id: 9, username: "lee", role: "manager", is_active: false },
  effective_scopes: [],
  state: "maker_disabled",
});
const revoked = token({
  id: 4,
  name: "Leaked",
  scopes: ["audit:read"],
  revoked_at: "2026-03-16T10:00:00.000Z",
  effective_scopes: [],
  state: "revoked",
});

/** fetch as a small server: GET /api/tokens answers `list`, POST /api/tokens answers a new token; request bodies are kept. */
function stubServer(list: ApiToken[]) {
  const posted: unknown[] = [];
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init?: RequestInit) => {
      const json = (body: unknown, status = 200) =>
        new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json" } });
      if ((init?.method ?? "GET") === "GET" && url.startsWith("/api/tokens")) return json(list);
      if (init?.method === "POST" && url === "/api/tokens") {
        const body = JSON.parse(String(init.body)) as { name: string; scopes: ApiToken["scopes"]; channels?: string[] };
        posted.push(body);
        const created: CreatedToken = {
          token: token({ id: 99, name: body.name, scopes: body.scopes, channels: body.channels ?? null, effective_scopes: body.scopes }),
          secret: `blez_${"s".repeat(43)}`,
        };
        return json(created, 201);
      }
      return json({ error: `no route ${url}` }, 404);
    }),
  );
  return posted;
}
afterEach(() => vi.unstubAllGlobals());

function renderSection() {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={queryClient}>
      <TokensSection />
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const cardOf = async (name: string) =>
  (await screen.findAllByTestId("token-card")).find((c) => within(c).queryByRole("heading", { name })) as HTMLElement;

describe("TokensSection", () => {
  it("shows each token's maker, state, the scopes it can use now, its channels and last use", async () => {
    stubServer([active, limited, makerDisabled, revoked]);
    renderSection();

    const web = await cardOf("Web store");
    expect(within(web).getByTestId("token-state")).toHaveTextContent("Active");
    expect(web).toHaveTextContent("morgan (Manager)");
    expect(web).toHaveTextContent("Channelsweb, ebay");
    expect(web).toHaveTextContent(`Last used${new Date(active.last_used_at as string).toLocaleString()}`);

    const market = await cardOf("Marketplace");
    expect(within(market).getByTestId("token-state")).toHaveTextContent("Limited by maker's role");
    expect(market).toHaveTextContent("sam (Inventory)");
    expect(market).toHaveTextContent("Its maker is now Inventory: orders:write is refused. It acts with products:read, products:write.");
    const scopes = within(within(market).getByRole("list", { name: "Scopes" })).getAllByRole("listitem");
    expect(scopes.map((s) => s.textContent)).toEqual([
      "products:read",
      "products:write",
      "orders:write (beyond its maker's role: refused)",
    ]);
    expect(market).toHaveTextContent("ChannelsEvery channel");
    expect(market).toHaveTextContent("Last usedNever");

    const old = await cardOf("Old script");
    expect(within(old).getByTestId("token-state")).toHaveTextContent("Maker disabled");
    expect(old).toHaveTextContent("lee (Manager, disabled)");
    expect(old).toHaveTextContent("the token is refused until it is enabled again");
    // No orders scope: no channels line.
    expect(old).not.toHaveTextContent("Channels");

    const leaked = await cardOf("Leaked");
    expect(within(leaked).getByTestId("token-state")).toHaveTextContent("Revoked");
    expect(within(leaked).queryByRole("button", { name: /Revoke/ })).toBeNull();
  });

  it("asks for order channels only while orders:write is chosen, and sends them as a list", async () => {
    const posted = stubServer([]);
    const user = renderSection();
    const form = screen.getByRole("form", { name: "Create an API token" });
    expect(within(form).queryByLabelText("Order channels (optional)")).toBeNull();

    await user.type(within(form).getByLabelText("Token name"), "eBay sync");
    await user.click(within(form).getByRole("checkbox", { name: /orders:write/ }));
    const channels = within(form).getByLabelText("Order channels (optional)");
    await user.type(channels, " ebay , web,,ebay ");
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(await screen.findByTestId("token-secret")).toHaveValue(`blez_${"s".repeat(43)}`);
    expect(posted).toEqual([{ name: "eBay sync", scopes: ["orders:write"], channels: ["ebay", "web"] }]);

    // Typed, then orders:write unticked: the field goes and nothing is sent for it.
    await user.type(within(form).getByLabelText("Token name"), "Reader");
    await user.click(within(form).getByRole("checkbox", { name: /orders:write/ }));
    await user.type(within(form).getByLabelText("Order channels (optional)"), "counter");
    await user.click(within(form).getByRole("checkbox", { name: /orders:write/ }));
    expect(within(form).queryByLabelText("Order channels (optional)")).toBeNull();
    await user.click(within(form).getByRole("checkbox", { name: /products:read/ }));
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    await vi.waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toEqual({ name: "Reader", scopes: ["products:read"] });
  });

  it("refuses a channel name longer than an order's channel before sending", async () => {
    const posted = stubServer([]);
    const user = renderSection();
    const form = screen.getByRole("form", { name: "Create an API token" });
    await user.type(within(form).getByLabelText("Token name"), "Too long");
    await user.click(within(form).getByRole("checkbox", { name: /orders:write/ }));
    await user.type(within(form).getByLabelText("Order channels (optional)"), "x".repeat(51));
    await user.click(within(form).getByRole("button", { name: "Create token" }));
    expect(await within(form).findByText("Each channel is at most 50 characters")).toBeInTheDocument();
    expect(posted).toEqual([]);
  });
});
