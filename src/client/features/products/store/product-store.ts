import type { InventoryUpdate } from "../../../../contract/events";
import { gtinKey } from "../../../../contract/gtin";
import type { Product, ProductsSince, QuantityChangeBody } from "../../../../contract/products";
import { RECENT_PRODUCTS_MAX } from "../../../../contract/rules";
import { type ApiError, normaliseError } from "../../../lib/http";
import { inSlices } from "../../../lib/slices";
import type { ProductList } from "../api/list-products";
import type { OfflineStorage, QueuedTap } from "./offline-storage";
import { TapQueue } from "./tap-queue";

/** The calls the store makes (the app passes the real ones, tests fakes). */
export interface ProductStoreApi {
  /** The whole catalogue; `userId`: the signed-in user (an answer the page asked for early is theirs only). */
  list(userId?: number): Promise<ProductList>;
  /** The list's first products, newest first (a screenful to show while the whole list downloads); none: wait for the list. */
  first?(): Promise<Product[]>;
  since(revision: number): Promise<ProductsSince>;
  lookup(barcode: string): Promise<Product | null>;
  adjust(id: number, body: QuantityChangeBody, key: string): Promise<Product>;
  newKey(): string;
}

export interface ProductStoreOptions {
  /** Whose store this is: taps kept offline belong to one user (their Idempotency-Keys are). */
  userId?: number;
  /** Where taps and the shown products survive a reload (IndexedDB in the app; none: memory only). */
  storage?: OfflineStorage | Promise<OfflineStorage>;
  /** The server refused a quantity change no caller waits for any more (one made before a reload): say so. */
  onRefused?: (tap: QueuedTap, error: ApiError, product: Product | undefined) => void;
}

export type ListStatus = "idle" | "loading" | "loaded" | "error";

/** One product changed in its slot (`previous`: the copy it replaced), or joined the catalogue (no `previous`). */
export interface CatalogueChange {
  slot: number;
  previous?: Product;
}

/**
 * What changed in the catalogue since the last notice: "reset" when it was loaded (every slot
 * may hold another product), else the slots that changed, in order.
 */
export type CatalogueChanges = "reset" | readonly CatalogueChange[];

/** Products a partial screen re-looks up after a reconnect or an import: the current one and the recents. */
export const WATCHED_MAX = RECENT_PRODUCTS_MAX + 1;

/**
 * The client's one copy of the products. A newer copy of a product (higher revision) replaces
 * an older one whichever way it came (list, catch-up, event, HTTP answer), so the order things
 * arrive in does not matter. The whole list is downloaded once, and only when a screen asks for
 * it; after that, missed changes come from `since` catch-ups. Every quantity change of this tab
 * goes through one queue (`tap`, TapQueue): it waits there, by Idempotency-Key and in order (in
 * offline storage while the server is out of reach), until its own event or its answer settles
 * it; the stock shown is the stored one plus the changes still queued. Barcodes are found as
 * GTINs (contract/gtin.ts), as the server finds them. A 401 needs nothing here: apiFetch tells
 * the app the session ended.
 */
export class ProductStore {
  /**
   * The catalogue, one copy of each product, in slots numbered in the order this tab came to know
   * the products: a list load numbers the list from its oldest, a product new to this tab takes
   * the next slot, so the list's order (newest first) is the slots from the last. A newer copy of
   * a product replaces it in its slot; a slot changes only when a list is loaded.
   */
  private slots: Product[] = [];
  private slotById = new Map<number, number>();
  /** Products known but not in the catalogue (restored from offline storage before a list). */
  private readonly loose = new Map<number, Product>();
  private idByBarcode = new Map<string, number>();
  private listCache: Product[] | null = null;
  private changes: CatalogueChange[] | "reset" | null = null;
  private notices = 0;
  private readonly catalogueListeners = new Set<(changes: CatalogueChanges) => void>();
  /** Products accepted while a list was being taken in: applied again over it. */
  private acceptedDuringLoad: Array<[Product, boolean | "listed"]> | null = null;
  /** While the list loads: its first page, newest first (the products themselves are kept as loose ones). */
  private firstPage: readonly Product[] | null = null;
  private listStatus: ListStatus = "idle";
  private listError: ApiError | null = null;
  private wantsAll = false;
  private watermark: number | null = null;
  private watched: string[] = [];
  private readonly lookups = new Map<string, Promise<Product | null>>();
  private sync: Promise<void> | null = null;
  private syncAgain = false;
  /** A catch-up was asked for before (the live connection is up): changes may predate a list loaded now. */
  private live = false;
  private readonly listeners = new Set<() => void>();
  private readonly queue: TapQueue;
  private saveTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly api: ProductStoreApi,
    private readonly options: ProductStoreOptions = {},
  ) {
    this.queue = new TapQueue(options.userId ?? 0, options.storage, {
      send: (tap) => this.api.adjust(tap.productId, tap.body, tap.key),
      // The queue has dropped the tap by now, so the shown stock no longer counts it.
      applied: (_tap, product) => {
        this.accept(product, true);
        this.emit();
      },
      refused: (tap, error, waited) => {
        this.emit();
        if (!waited) this.options.onRefused?.(tap, error, this.get(tap.productId));
      },
      restored: (_taps, products) => {
        for (const p of products) this.accept(p, "listed");
        this.emit();
      },
      changed: () => this.emit(),
    });
  }

  // Arrow properties: React's useSyncExternalStore takes them unbound.
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The catalogue, newest first: a new array after every change (views of the whole catalogue read `slotCount`/`at` and `subscribeCatalogue`). */
  getList = (): readonly Product[] => {
    this.listCache ??= this.slots.slice().reverse();
    return this.listCache;
  };
  getListStatus = (): ListStatus => this.listStatus;
  /**
   * While the list is loading, its first page once that came (newest first, as received: read the
   * current copies with `get`); null otherwise. Only a preview: no count or search of the catalogue
   * can be made from it.
   */
  getFirstPage = (): readonly Product[] | null => this.firstPage;
  getListError = (): ApiError | null => this.listError;
  get = (id: number): Product | undefined => {
    const slot = this.slotById.get(id);
    return slot === undefined ? this.loose.get(id) : this.slots[slot];
  };
  /** Products in the catalogue (slots 0 to slotCount - 1; the newest in the last). */
  slotCount = (): number => this.slots.length;
  /** The product in a slot. */
  at = (slot: number): Product => this.slots[slot] as Product;
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
  getByBarcode = (barcode: string): Product | undefined => {
    const id = this.idByBarcode.get(barcode) ?? this.idByBarcode.get(gtinKey(barcode));
    return id === undefined ? undefined : this.get(id);
  };
  /** Quantity changes of product `id` waiting for the server (queued, in offline storage). */
  pendingTaps = (id: number): number => this.queue.taps().filter((t) => t.productId === id).length;
  /** Every quantity change waiting for the server. */
  pendingTapCount = (): number => this.queue.taps().length;
  /** The last send of a change found no server: changes wait. */
  isOffline = (): boolean => this.queue.isOffline();
  /** Sum of this tab's quantity changes of product `id` still waiting to be settled. */
  pendingDelta = (id: number): number => {
    let sum = 0;
    for (const t of this.queue.taps()) if (t.productId === id) sum += t.body.quantity_change;
    return sum;
  };
  /** Stock as this tab shows it: the stored quantity plus the changes in flight. */
  shownQuantity = (id: number): number => (this.get(id)?.quantity_on_hand ?? 0) + this.pendingDelta(id);

  /** A screen needs the whole catalogue: downloads it once (again only after a failure). */
  ensureList = (): void => {
    this.wantsAll = true;
    if (this.listStatus === "idle" || this.listStatus === "error") void this.loadList();
  };

  /** An answer from the server (lookup, create, edit, status): kept when newer. */
  put = (product: Product): void => {
    if (this.accept(product, true)) this.emit();
  };

  /** GET /api/products/barcode/{b} into the store; concurrent lookups of one barcode share a request. */
  lookup = (barcode: string): Promise<Product | null> => {
    const running = this.lookups.get(barcode);
    if (running) return running;
    const request = this.api
      .lookup(barcode)
      .then((product) => {
        if (product) this.put(product);
        return product;
      })
      .finally(() => this.lookups.delete(barcode));
    this.lookups.set(barcode, request);
    return request;
  };

  /** The barcodes a partial screen shows (current + recents); re-looked up on reconnect or import. */
  setWatched = (barcodes: readonly string[]): void => {
    this.watched = [...new Set(barcodes)].slice(0, WATCHED_MAX);
    this.keepShownProducts();
  };

  /** A live inventory_update. Never downloads the whole list. */
  applyEvent = (update: InventoryUpdate): void => {
    const { product, idempotency_key: key, revision } = update.data;
    if (update.type === "products_imported") {
      const alreadyHave = revision !== undefined && this.watermark !== null && revision <= this.watermark;
      if (!alreadyHave) this.resync();
      return;
    }
    // Unknown products join only a full list; a partial screen keeps to what it looked up.
    const applied = product ? this.accept(product, this.wantsAll) : false;
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
    this.live = true;
    // The server may be back: taps waiting for it go first.
    this.queue.flush();
    if (this.wantsAll && this.listStatus !== "loaded") {
      if (this.listStatus === "loading") this.syncAgain = true;
      else void this.loadList();
      return;
    }
    if (this.sync) {
      this.syncAgain = true;
      return;
    }
    this.sync = this.runSync().finally(() => {
      this.sync = null;
    });
  };

  /** Send the taps waiting for the server now (the browser is online again). */
  flushTaps = (): void => this.queue.flush();

  /** Stops timers (the store's session ended). */
  dispose = (): void => {
    this.queue.dispose();
    if (this.saveTimer) clearTimeout(this.saveTimer);
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
  idle = async (): Promise<void> => {
    while (this.sync) await this.sync;
  };

  private async loadList(): Promise<void> {
    // The list may be a shared snapshot a little behind (it names the revision it is complete up
    // to): a tab already live when it asked catches up with ?since= right after.
    const liveBefore = this.live;
    this.listStatus = "loading";
    this.listError = null;
    this.emit();
    // Both asked for at once, the small first page first.
    const first = this.api.first?.();
    const whole = this.api.list(this.options.userId);
    if (first) void this.takeFirstPage(first);
    try {
      const { products, revision } = await whole;
      this.acceptedDuringLoad = [];
      await this.takeList(products);
      for (const [p, add] of this.acceptedDuringLoad) this.accept(p, add);
      this.watermark = revision;
      this.listStatus = "loaded";
    } catch (err) {
      this.listStatus = "error";
      this.listError = normaliseError(err);
    } finally {
      this.acceptedDuringLoad = null;
      this.firstPage = null;
    }
    this.emit();
    if ((this.syncAgain || liveBefore) && this.listStatus === "loaded") {
      this.syncAgain = false;
      this.resync();
    }
  }

  /**
   * The first page, shown until the list is the catalogue (once it is, or after a failure, a page
   * that comes is dropped). Its products are kept as loose ones: live changes reach them, and the list load
   * places them (the newer copy of each wins).
   */
  private async takeFirstPage(first: Promise<Product[]>): Promise<void> {
    let products: Product[];
    try {
      products = await first;
    } catch {
      return; // the whole list still comes
    }
    // Also while the list is being taken in (100,000 products take a while to index); not after.
    if (this.listStatus !== "loading") return;
    for (const p of products) this.accept(p, "listed");
    this.firstPage = products;
    this.emit();
  }

  /**
   * The list becomes the catalogue, in slices (100,000 products take a while to index): the list
   * from its oldest, then the products this tab learnt of that the list does not hold yet (they
   * are newer: they show first). Of two copies of a product the newer is kept. Changes arriving
   * meanwhile are applied again over it by the caller.
   */
  private async takeList(products: readonly Product[]): Promise<void> {
    const n = products.length;
    // Pushed in order: an array made with its length and filled would be a slow, sparse one at this size.
    const slots: Product[] = [];
    const slotById = new Map<number, number>();
    await inSlices(n, (i) => {
      const p = products[n - 1 - i] as Product;
      const old = this.get(p.id);
      slots.push(old && old.revision > p.revision ? old : p);
      slotById.set(p.id, i);
    });
    const idByBarcode = new Map<string, number>();
    await inSlices(slots.length, (i) => indexBarcode(idByBarcode, slots[i] as Product));
    // Products known loosely (looked up, kept offline before a reload, or the first page, which
    // may come during the slices above) join too: the shared snapshot may predate them, and a
    // catch-up would find them unchanged.
    // They are newer than the list: after it, oldest first as the list's order has it (the first
    // page comes newest first).
    const extra = [...this.slots, ...this.loose.values()].filter((p) => !slotById.has(p.id)).sort(oldestFirst);
    for (const p of extra) {
      slotById.set(p.id, slots.length);
      slots.push(p);
      indexBarcode(idByBarcode, p);
    }
    this.loose.clear();
    this.slots = slots;
    this.slotById = slotById;
    this.idByBarcode = idByBarcode;
    this.listCache = null;
    this.changes = "reset";
  }

  private async runSync(): Promise<void> {
    do {
      this.syncAgain = false;
      try {
        if (this.wantsAll) await this.catchUp();
        else await this.relookupWatched();
      } catch {
        // The next reconnect or import tries again.
      }
    } while (this.syncAgain);
  }

  private async catchUp(): Promise<void> {
    if (this.watermark === null) return;
    const { revision, products } = await this.api.since(this.watermark);
    let changed = false;
    for (const p of products) changed = this.accept(p, true) || changed;
    this.watermark = Math.max(this.watermark, revision);
    if (changed) this.emit();
  }

  private async relookupWatched(): Promise<void> {
    await Promise.allSettled(this.watched.map((barcode) => this.lookup(barcode)));
  }

  /**
   * Keeps `p` when it is newer than the stored copy. `add`: whether a product this tab does not
   * know yet joins (true: the catalogue, in front of the list; "listed": known, placed by a list load).
   */
  private accept(p: Product, add: boolean | "listed"): boolean {
    const slot = this.slotById.get(p.id);
    const old = slot === undefined ? this.loose.get(p.id) : this.slots[slot];
    if (old ? p.revision <= old.revision : !add) return false;
    this.acceptedDuringLoad?.push([p, add]);
    if (old && old.barcode !== p.barcode) {
      for (const b of [old.barcode, gtinKey(old.barcode)]) if (this.idByBarcode.get(b) === p.id) this.idByBarcode.delete(b);
    }
    indexBarcode(this.idByBarcode, p);
    if (slot !== undefined) {
      this.slots[slot] = p;
      this.noteChange({ slot, previous: old });
    } else if (add === true) {
      this.loose.delete(p.id);
      this.slotById.set(p.id, this.slots.length);
      this.noteChange({ slot: this.slots.length });
      this.slots.push(p);
    } else {
      this.loose.set(p.id, p);
    }
    this.listCache = null;
    return true;
  }

  private noteChange(change: CatalogueChange): void {
    if (this.changes === "reset") return;
    this.changes ??= [];
    this.changes.push(change);
  }

  private emit(): void {
    // The views of the whole catalogue patch what they derived first, then every reader re-reads.
    const changes = this.changes;
    this.changes = null;
    if (changes) {
      this.notices++;
      for (const listener of this.catalogueListeners) listener(changes);
    }
    for (const listener of this.listeners) listener();
    this.keepShownProducts();
  }

  /** Keeps the products the streamer shows and those with waiting taps (soon after a change): they show after a reload offline. */
  private keepShownProducts(): void {
    if (!this.options.storage || this.saveTimer) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      const ids = new Set([...this.watched.flatMap((b) => this.getByBarcode(b)?.id ?? []), ...this.queue.taps().map((t) => t.productId)]);
      this.queue.saveProducts([...ids].flatMap((id) => this.get(id) ?? []));
    }, 250);
  }
}

/** The list's order reversed (it is newest first: by creation, then by id). */
function oldestFirst(a: Product, b: Product): number {
  if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
  return a.id - b.id;
}

/** A product under its barcode and, when it differs, the GTIN form of it (lookups find either). */
function indexBarcode(index: Map<string, number>, p: Product): void {
  index.set(p.barcode, p.id);
  const key = gtinKey(p.barcode);
  if (key !== p.barcode) index.set(key, p.id);
}
