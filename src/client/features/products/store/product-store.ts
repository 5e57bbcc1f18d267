import type { InventoryUpdate } from "../../../../contract/events";
import type { Product, QuantityChangeBody } from "../../../../contract/products";
import type { ApiError } from "../../../lib/http";
import { CatalogueDownload, type ListStatus } from "./catalogue-download";
import { CatchUp } from "./catch-up";
import { OfflineCopies } from "./offline-copies";
import type { OfflineStorage, QueuedTap } from "./offline-storage";
import { type CatalogueChanges, ProductSlots } from "./product-slots";
import type { ProductStoreApi } from "./product-store-api";
import { TapQueue } from "./tap-queue";
import { WatchedProducts } from "./watched-products";

export interface ProductStoreOptions {
  /** Whose store this is: taps kept offline belong to one user (their Idempotency-Keys are). */
  userId?: number;
  /** Where taps and the shown products survive a reload (IndexedDB in the app; none: memory only). */
  storage?: OfflineStorage | Promise<OfflineStorage>;
  /** The server refused a quantity change no caller waits for any more (one made before a reload): say so. */
  onRefused?: (tap: QueuedTap, error: ApiError, product: Product | undefined) => void;
}

/**
 * The client's one copy of the products, the one object screens use (through the hooks of
 * product-store-provider.tsx). It puts together, and tells its listeners after each change of:
 * - the products themselves, one copy each in slots (ProductSlots, product-slots.ts): a newer
 *   copy of a product (higher revision) replaces an older one whichever way it came (list,
 *   catch-up, event, HTTP answer), so the order things arrive in does not matter;
 * - the whole list, downloaded once and only when a screen asks for it (CatalogueDownload,
 *   catalogue-download.ts);
 * - the catch-ups after missed events, `since` a revision (CatchUp, catch-up.ts);
 * - the products a screen without the whole list watches (WatchedProducts, watched-products.ts);
 * - every quantity change of this tab, in one queue (`tap`; TapQueue, tap-queue.ts): it waits
 *   there, by Idempotency-Key and in order (in offline storage while the server is out of reach),
 *   until its own event or its answer settles it; the stock shown is the stored one plus the
 *   changes still queued; the products shown are kept offline with their taps (OfflineCopies,
 *   offline-copies.ts).
 * A 401 needs nothing here: apiFetch tells the app the session ended.
 */
export class ProductStore {
  private readonly slots = new ProductSlots();
  private readonly download: CatalogueDownload;
  private readonly catchUp: CatchUp;
  private readonly watched: WatchedProducts;
  private readonly queue: TapQueue;
  private readonly offlineCopies: OfflineCopies;
  private readonly listeners = new Set<() => void>();
  private readonly catalogueListeners = new Set<(changes: CatalogueChanges) => void>();
  private notices = 0;

  constructor(
    private readonly api: ProductStoreApi,
    options: ProductStoreOptions = {},
  ) {
    this.download = new CatalogueDownload(api, options.userId, this.slots, {
      loaded: (revision) => this.catchUp.startFrom(revision),
      changed: () => this.emit(),
    });
    this.catchUp = new CatchUp({
      wholeCatalogue: () => this.download.isWanted(),
      since: (revision) => this.api.since(revision),
      took: (products) => {
        let changed = false;
        for (const p of products) changed = this.slots.accept(p, "join") || changed;
        if (changed) this.emit();
      },
      lookUpAgain: () => this.watched.lookUpAgain(),
    });
    this.watched = new WatchedProducts({ lookup: (barcode) => this.api.lookup(barcode), found: (product) => this.put(product) });
    this.queue = new TapQueue(options.userId ?? 0, options.storage, {
      send: (tap) => this.api.adjust(tap.productId, tap.body, tap.key),
      // The queue has dropped the tap by now, so the shown stock no longer counts it.
      applied: (_tap, product) => {
        this.slots.accept(product, "join");
        this.emit();
      },
      refused: (tap, error, waited) => {
        this.emit();
        if (!waited) options.onRefused?.(tap, error, this.get(tap.productId));
      },
      restored: (_taps, products) => {
        for (const p of products) this.slots.accept(p, "set-aside");
        this.emit();
      },
      changed: () => this.emit(),
    });
    this.offlineCopies = new OfflineCopies(
      Boolean(options.storage),
      () => {
        const ids = new Set([
          ...this.watched.list().flatMap((b) => this.getByBarcode(b)?.id ?? []),
          ...this.queue.taps().map((t) => t.productId),
        ]);
        return [...ids].flatMap((id) => this.get(id) ?? []);
      },
      (products) => this.queue.saveProducts(products),
    );
  }

  // Arrow properties: React's useSyncExternalStore takes them unbound.
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The catalogue, newest first: a new array after every change (views of the whole catalogue read `slotCount`/`at` and `subscribeCatalogue`). */
  getList = (): readonly Product[] => this.slots.newestFirst();
  getListStatus = (): ListStatus => this.download.getStatus();
  /**
   * While the list is loading, its first page once that came (newest first, as received: read the
   * current copies with `get`); null otherwise. Only a preview: no count or search of the catalogue
   * can be made from it.
   */
  getFirstPage = (): readonly Product[] | null => this.download.getFirstPage();
  getListError = (): ApiError | null => this.download.getError();
  get = (id: number): Product | undefined => this.slots.get(id);
  /** Products in the catalogue (slots 0 to slotCount - 1; the newest in the last). */
  slotCount = (): number => this.slots.count();
  /** The product in a slot. */
  at = (slot: number): Product => this.slots.at(slot);
  /**
   * Hears, before the store's other listeners, what changed in the catalogue: the slots whose
   * product changed or joined, or "reset" after a list load. A view of the whole catalogue
   * patches what it derived instead of deriving it all again.
   */
  subscribeCatalogue = (listener: (changes: CatalogueChanges) => void): (() => void) => {
    this.catalogueListeners.add(listener);
    return () => this.catalogueListeners.delete(listener);
  };
  /** How many notices `subscribeCatalogue` has sent: a view that derived at this count is up to date. */
  catalogueNotices = (): number => this.notices;
  /** A known product by barcode, or by another form of its GTIN. */
  getByBarcode = (barcode: string): Product | undefined => this.slots.byBarcode(barcode);
  /** Quantity changes of product `id` waiting for the server (queued, in offline storage). */
  pendingTaps = (id: number): number => this.queue.countFor(id);
  /** Every quantity change waiting for the server. */
  pendingTapCount = (): number => this.queue.taps().length;
  /** The last send of a change found no server: changes wait. */
  isOffline = (): boolean => this.queue.isOffline();
  /** Sum of this tab's quantity changes of product `id` still waiting to be settled. */
  pendingDelta = (id: number): number => this.queue.deltaFor(id);
  /** Stock as this tab shows it: the stored quantity plus the changes in flight. */
  shownQuantity = (id: number): number => (this.get(id)?.quantity_on_hand ?? 0) + this.pendingDelta(id);

  /** A screen needs the whole catalogue: downloads it once (again only after a failure). */
  ensureList = (): void => {
    this.download.want();
    if (this.download.canStart()) void this.loadList();
  };

  /** An answer from the server (lookup, create, edit, status): kept when newer. */
  put = (product: Product): void => {
    if (this.slots.accept(product, "join")) this.emit();
  };

  /** GET /api/products/barcode/{b} into the store; concurrent lookups of one barcode share a request. */
  lookup = (barcode: string): Promise<Product | null> => this.watched.lookup(barcode);

  /** The barcodes a partial screen shows (current + recents); re-looked up on reconnect or import. */
  setWatched = (barcodes: readonly string[]): void => {
    this.watched.set(barcodes);
    this.offlineCopies.saveSoon();
  };

  /** A live inventory_update. Never downloads the whole list. */
  applyEvent = (update: InventoryUpdate): void => {
    const { product, idempotency_key: key, revision } = update.data;
    if (update.type === "products_imported") {
      if (!this.catchUp.covers(revision)) this.resync();
      return;
    }
    // Unknown products join only a whole catalogue; a partial screen keeps to what it looked up.
    const applied = product ? this.slots.accept(product, this.download.isWanted() ? "join" : "skip") : false;
    // This tab's own change: settled now, whether or not its answer comes.
    const settled = key && product ? this.queue.settledByEvent(key, product) : false;
    if (applied || settled) this.emit();
  };

  /**
   * Catch up after missed events (reconnect, import): `since` the watermark when the full list
   * is loaded, else re-look-up the watched products. One run at a time; triggers during a run
   * schedule exactly one more.
   */
  resync = (): void => {
    this.catchUp.markLive();
    // The server may be back: taps waiting for it go first.
    this.queue.flush();
    if (this.download.isWanted() && this.download.getStatus() !== "loaded") {
      if (this.download.getStatus() === "loading") this.catchUp.afterLoad();
      else void this.loadList();
      return;
    }
    this.catchUp.run();
  };

  /** Send the taps waiting for the server now (the browser is online again). */
  flushTaps = (): void => this.queue.flush();

  /** Stops timers (the store's session ended). */
  dispose = (): void => {
    this.queue.dispose();
    this.offlineCopies.dispose();
  };

  /**
   * Every quantity change (a streamer's SOLD/ADD or undo, an inventory card's -/+, an adjustment
   * by an amount, a count): shows at once as pending, waits in order in offline storage while the
   * server is out of reach (and across a reload), and is sent with its own Idempotency-Key until
   * the server applies it once (resolves) or refuses it (rejects with the server's reason at once;
   * the shown stock goes back). `showId`: the show it was made in. `expected`: a count's starting
   * stock; the server refuses the change when the stock is no longer that when it arrives.
   */
  tap = (id: number, delta: number, reason: string, opts: { showId?: number; expected?: number } = {}): Promise<Product> => {
    const body: QuantityChangeBody = {
      quantity_change: delta,
      reason,
      ...(opts.showId === undefined ? {} : { show_id: opts.showId }),
      ...(opts.expected === undefined ? {} : { expected_quantity: opts.expected }),
    };
    const settled = this.queue.add({ key: this.api.newKey(), productId: id, body, at: new Date().toISOString() });
    this.emit();
    return settled;
  };

  /** Resolves when no catch-up is running (tests). */
  idle = (): Promise<void> => this.catchUp.idle();

  /** The list is downloaded; a tab that was live already catches up from its revision (the list may be a shared snapshot a little behind). */
  private async loadList(): Promise<void> {
    const liveBefore = this.catchUp.isLive();
    if ((await this.download.load()) && this.catchUp.dueAfterLoad(liveBefore)) this.resync();
  }

  private emit(): void {
    // The views of the whole catalogue patch what they derived first, then every reader re-reads.
    const changes = this.slots.takeChanges();
    if (changes) {
      this.notices++;
      for (const listener of this.catalogueListeners) listener(changes);
    }
    for (const listener of this.listeners) listener();
    this.offlineCopies.saveSoon();
  }
}
