import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense, useCallback, useEffect, useRef, useState } from "react";
import { BrowserRouter, useLocation, useNavigate } from "react-router";
import type { InventoryUpdate, LowStockEvent, ShowUpdate } from "../contract/events";
import { MESSAGES } from "../contract/rules";
import { Spinner, ViewLoading } from "./components/ui/spinner";
import { AuthProvider, LoginScreen, useAuth } from "./features/auth";
import { BuylistPage } from "./features/buylist";
import { CounterView, CustomersView } from "./features/counter";
import { IntegrationsView } from "./features/integrations";
import { InventoryView, preloadInventoryView } from "./features/inventory";
import { LiveFeedProvider, notify, Toasters, useLiveFeed } from "./features/notifications";
import { OrdersView } from "./features/orders";
import { LiveProvider } from "./features/presence";
import { PricesView } from "./features/prices";
import { EditProductDialog, ProductStoreProvider, useCatalogue, useProduct, useProductStore } from "./features/products";
import { ReportsView } from "./features/reports";
import { StockTakesView } from "./features/stock-takes";
import { StreamerView } from "./features/streamer";
import { ThemeProvider, useTheme } from "./features/theme";
import { UsersView } from "./features/users";
import { rememberedSession } from "./lib/kept-session";
import { createQueryClient } from "./lib/query-client";
import { customerPath, firstScreen, isPublicPath, landing, orderPath, productPath, stockTakePath, VIEW_PATHS } from "./shell/routes";
import { TopBar } from "./shell/top-bar";
import { allowedViews, VIEW_LABELS } from "./shell/views";

function LoadingScreen() {
  return (
    <main className="flex min-h-dvh items-center justify-center gap-3 text-lg" aria-busy="true">
      <Spinner label="Loading" />
      <p>Loading...</p>
    </main>
  );
}

/** The screen a product's dialog opens over: the one that opened it, kept in the history entry's state. */
interface Opener {
  pathname: string;
  search: string;
}
function openerOf(state: unknown): Opener | null {
  const opener = (state as { opener?: Partial<Opener> } | null)?.opener;
  return typeof opener?.pathname === "string" && typeof opener.search === "string"
    ? { pathname: opener.pathname, search: opener.search }
    : null;
}

/**
 * The signed-in app: the top bar and the view at the address (shell/routes.ts). An address this
 * user may not see, the root and any unknown path land on their default view (the first with a
 * message). A product's address opens its Edit dialog over the screen that opened it (the
 * inventory, or a report; the inventory when opened from a link), an order's over the Orders list;
 * Back closes either.
 */
function Shell() {
  const { user, permissions } = useAuth();
  const role = user?.role ?? "streamer";
  const views = allowedViews(role, permissions);
  const location = useLocation();
  const navigate = useNavigate();
  const here = landing(location.pathname, role, permissions);
  const { productId, orderId, customerId, stockTakeId, stockTakeReview } = here.place;
  const opened = openerOf(location.state);
  // What the screen shows: the opener behind a product's dialog when this user may see it, else the address.
  const openerLanding = productId !== undefined && opened ? landing(opened.pathname, role, permissions) : null;
  const behind = openerLanding?.redirect === null ? opened : null;
  // Opened from a link: over the inventory, whose query the product's address then carries.
  const screen = behind ?? (productId !== undefined ? { pathname: VIEW_PATHS.inventory, search: location.search } : location);
  const view = behind && openerLanding ? openerLanding.place.view : here.place.view;

  useEffect(() => {
    if (here.redirect === null) return;
    navigate(here.redirect, { replace: true });
    if (here.denied) notify.warning(`You don't have access to ${VIEW_LABELS[here.denied]}`, { id: "no-access" });
  }, [here.redirect, here.denied, navigate]);

  const store = useProductStore();
  // The inventory's catalogue downloads while the view's code loads, not after it.
  useEffect(() => {
    if (view === "inventory") store.ensureList();
  }, [view, store]);

  // A new view: at the top of the page, and focus on its main landmark (a screen reader reads on from there).
  const mainRef = useRef<HTMLElement>(null);
  const shown = useRef(view);
  useEffect(() => {
    if (shown.current === view) return;
    shown.current = view;
    window.scrollTo({ top: 0 });
    mainRef.current?.focus({ preventScroll: true });
  }, [view]);

  // The screen's own state in its query string; behind a dialog, kept in the entry's state until it closes.
  const setScreenSearch = useCallback(
    (query: string) => {
      // The address has moved on (a view chosen while this screen's query waited to be written, the
      // next view still loading): that query is no longer this address's, and would bring the old view back.
      if (window.location.pathname !== location.pathname) return;
      const search = query ? `?${query}` : "";
      if (behind) navigate(location, { replace: true, state: { opener: { ...behind, search } } });
      else navigate({ pathname: location.pathname, search }, { replace: true, state: location.state });
    },
    [behind, location, navigate],
  );
  // Over the screen as the address has it now (a query the screen has just written included). The
  // same function for good (each row of the inventory is handed it): navigate changes with the path.
  const navigateNow = useRef(navigate);
  navigateNow.current = navigate;
  const openProduct = useCallback((id: number) => {
    const opener = { pathname: window.location.pathname, search: window.location.search };
    navigateNow.current(productPath(id), { state: { opener } });
  }, []);
  // Opened here: Back to where it was opened. Opened from a link: the inventory.
  const closeProduct = useCallback(() => {
    if (opened) navigate(-1);
    else navigate({ pathname: VIEW_PATHS.inventory, search: location.search }, { replace: true });
  }, [opened, navigate, location.search]);
  const openOrder = useCallback(
    (id: number) => navigate(orderPath(id), { state: { opener: { pathname: VIEW_PATHS.orders, search: "" } } }),
    [navigate],
  );
  const closeOrder = useCallback(() => {
    if (opened) navigate(-1);
    else navigate(VIEW_PATHS.orders, { replace: true });
  }, [opened, navigate]);

  return (
    <div className="min-h-dvh bg-gray-100 dark:bg-gray-950">
      <TopBar views={views} view={view} here={screen} />
      <main ref={mainRef} tabIndex={-1} className="mx-auto max-w-page px-2 py-3 outline-none sm:px-4 sm:py-4">
        <Suspense fallback={<ViewLoading />}>
          {view === "streamer" ? <StreamerView /> : null}
          {view === "inventory" ? (
            <InventoryView
              search={screen.search}
              onSearchChange={setScreenSearch}
              onOpenProduct={openProduct}
              covered={productId !== undefined}
            />
          ) : null}
          {view === "reports" ? <ReportsView search={screen.search} onSearchChange={setScreenSearch} onOpenProduct={openProduct} /> : null}
          {view === "users" ? <UsersView /> : null}
          {view === "orders" ? <OrdersView orderId={orderId} onOpenOrder={openOrder} onCloseOrder={closeOrder} /> : null}
          {view === "prices" ? <PricesView onOpenProduct={openProduct} /> : null}
          {view === "counter" ? <CounterView /> : null}
          {view === "customers" ? (
            <CustomersView
              customerId={customerId}
              onOpenCustomer={(id) => navigate(customerPath(id))}
              onBack={() => navigate(VIEW_PATHS.customers)}
            />
          ) : null}
          {view === "stockTakes" ? (
            <StockTakesView
              stockTakeId={stockTakeId}
              review={stockTakeReview}
              onCount={(id) => navigate(stockTakePath(id))}
              onReview={(id) => navigate(stockTakePath(id, true))}
              onList={() => navigate(VIEW_PATHS.stockTakes)}
            />
          ) : null}
          {view === "integrations" ? <IntegrationsView /> : null}
          {productId !== undefined && here.redirect === null ? <OpenProduct id={productId} onClose={closeProduct} /> : null}
        </Suspense>
      </main>
    </div>
  );
}

/** The Edit Product dialog on a product of the store, by id (its address); one the catalogue does not hold is said so and closed. */
function OpenProduct({ id, onClose }: { id: number; onClose: () => void }) {
  // The catalogue, if no screen has loaded it yet (the dialog opens once the product is known).
  const { status } = useCatalogue();
  const product = useProduct(id);
  const missing = !product && status === "loaded";
  useEffect(() => {
    if (!missing) return;
    notify.error(MESSAGES.productNotFound, { id: "product-not-found" });
    onClose();
  }, [missing, onClose]);
  return product ? <EditProductDialog product={product} onClose={onClose} /> : null;
}

/** The live connection feeds the product store: events by revision, a catch-up whenever it (re)connects. */
function LiveProducts({ children }: { children: ReactNode }) {
  const store = useProductStore();
  const { user } = useAuth();
  const { push } = useLiveFeed();
  const onInventoryUpdate = useCallback(
    (update: InventoryUpdate) => {
      store.applyEvent(update);
      push(update);
    },
    [store, push],
  );
  // Other screens hear that a show started or ended (the shows on screen refetch in LiveProvider).
  const onShowUpdate = useCallback(
    (update: ShowUpdate) => {
      if (update.userId === user?.id) return;
      const verb = update.type === "show_started" ? "started" : "ended";
      notify.info(`${update.username} ${verb} the show "${update.show.name}"`);
    },
    [user?.id],
  );
  // Managers hear when a product reaches its reorder point (the server sends it only to them).
  const onLowStock = useCallback((event: LowStockEvent) => {
    const p = event.product;
    notify.warning(`Low stock: ${p.product_name} is at ${p.quantity_on_hand} (reorder point ${p.reorder_point ?? 0})`);
  }, []);
  return (
    <LiveProvider onInventoryUpdate={onInventoryUpdate} onConnected={store.resync} onShowUpdate={onShowUpdate} onLowStock={onLowStock}>
      {children}
    </LiveProvider>
  );
}

/**
 * A returning user whose first screen is the inventory (the address and the role this device last
 * saw decide, as in the page's head): its code loads while the session is checked, not after.
 * Called by main.tsx before the first render.
 */
export function preloadFirstScreen() {
  const kept = rememberedSession();
  const path = window.location.pathname;
  if (kept && !isPublicPath(path) && firstScreen(path, kept.user.role, kept.permissions) === "inventory") void preloadInventoryView();
}

function Gate() {
  const { status, user } = useAuth();
  if (status === "loading") return <LoadingScreen />;
  if (status === "signed-out" || !user) return <LoginScreen />;
  return (
    <ProductStoreProvider key={user.id} userId={user.id}>
      <LiveFeedProvider key={user.id} userId={user.id}>
        <LiveProducts>
          <Shell />
        </LiveProducts>
      </LiveFeedProvider>
    </ProductStoreProvider>
  );
}

function ThemedToasters() {
  const { resolved } = useTheme();
  return <Toasters theme={resolved} />;
}

export function App() {
  const [queryClient] = useState(createQueryClient);
  // The public buylist: its own lazy page, no session asked for (nor the sign-in screen shown).
  const [publicPage] = useState(() => isPublicPath(window.location.pathname));
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        {publicPage ? (
          <Suspense fallback={<LoadingScreen />}>
            <BuylistPage />
          </Suspense>
        ) : (
          <BrowserRouter>
            <AuthProvider>
              <Gate />
            </AuthProvider>
          </BrowserRouter>
        )}
        <ThemedToasters />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
