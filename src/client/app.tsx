import { QueryClientProvider } from "@tanstack/react-query";
import { type ReactNode, Suspense, useCallback, useEffect, useState } from "react";
import type { InventoryUpdate, LowStockEvent, ShowUpdate } from "../contract/events";
import { Spinner, ViewLoading } from "./components/ui/spinner";
import { AuthProvider, LoginScreen, rememberedSession, useAuth } from "./features/auth";
import { IntegrationsView } from "./features/integrations";
import { InventoryView, preloadInventoryView } from "./features/inventory";
import { LiveFeedProvider, notify, Toasters, useLiveFeed } from "./features/notifications";
import { OrdersView } from "./features/orders";
import { LiveProvider } from "./features/presence";
import { EditProductDialog, ProductStoreProvider, useProduct, useProductStore } from "./features/products";
import { ReportsView } from "./features/reports";
import { StreamerView } from "./features/streamer";
import { ThemeProvider, useTheme } from "./features/theme";
import { UsersView } from "./features/users";
import { createQueryClient } from "./lib/query-client";
import { TopBar } from "./shell/top-bar";
import { allowedViews, defaultView, type View } from "./shell/views";

function LoadingScreen() {
  return (
    <main className="flex min-h-dvh items-center justify-center gap-3 text-lg" aria-busy="true">
      <Spinner label="Loading" />
      <p>Loading...</p>
    </main>
  );
}

/** The signed-in app: top bar and the view switch (state, no URL routes). */
function Shell() {
  const { user, permissions } = useAuth();
  const role = user?.role ?? "streamer";
  const views = allowedViews(role, permissions);
  const [view, setView] = useState<View>(() => defaultView(role, permissions));
  const current = views.includes(view) ? view : (views[0] ?? "streamer");
  const store = useProductStore();
  // The inventory's catalogue downloads while the view's code loads, not after it.
  useEffect(() => {
    if (current === "inventory") store.ensureList();
  }, [current, store]);

  const changeView = (next: View) => {
    setView(next);
    window.scrollTo({ top: 0 });
  };
  // A product a report names, opened in the Edit Product dialog.
  const [openProductId, setOpenProductId] = useState<number | null>(null);

  return (
    <div className="min-h-dvh bg-gray-100 dark:bg-gray-950">
      <TopBar views={views} view={current} onViewChange={changeView} />
      <main className="mx-auto max-w-page px-2 py-3 sm:px-4 sm:py-4">
        <Suspense fallback={<ViewLoading />}>
          {current === "streamer" ? <StreamerView /> : null}
          {current === "inventory" ? <InventoryView /> : null}
          {current === "reports" ? <ReportsView onOpenProduct={setOpenProductId} /> : null}
          {current === "users" ? <UsersView /> : null}
          {current === "orders" ? <OrdersView /> : null}
          {current === "integrations" ? <IntegrationsView /> : null}
          {openProductId !== null ? <OpenProduct id={openProductId} onClose={() => setOpenProductId(null)} /> : null}
        </Suspense>
      </main>
    </div>
  );
}

/** The Edit Product dialog on a product of the store, by id (a report's row opens it). */
function OpenProduct({ id, onClose }: { id: number; onClose: () => void }) {
  const store = useProductStore();
  // The catalogue, if no screen has loaded it yet (the dialog opens once the product is known).
  useEffect(() => store.ensureList(), [store]);
  const product = useProduct(id);
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
 * A returning user whose first screen is the inventory (as this device last saw them): its code
 * loads while the session is checked, not after. Called by main.tsx before the first render.
 */
export function preloadFirstScreen() {
  const kept = rememberedSession();
  if (kept && defaultView(kept.user.role, kept.permissions) === "inventory") void preloadInventoryView();
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
  return (
    <ThemeProvider>
      <QueryClientProvider client={queryClient}>
        <AuthProvider>
          <Gate />
        </AuthProvider>
        <ThemedToasters />
      </QueryClientProvider>
    </ThemeProvider>
  );
}
