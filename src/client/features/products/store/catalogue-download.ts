import type { Product } from "../../../../contract/products";
import { type ApiError, normaliseError } from "../../../lib/http";
import type { ProductSlots } from "./product-slots";
import type { ProductStoreApi } from "./product-store-api";

export type ListStatus = "idle" | "loading" | "loaded" | "error";

export interface CatalogueDownloadHooks {
  /** The list became the catalogue, complete up to `revision` (null: the server named none). */
  loaded(revision: number | null): void;
  /** The download's state changed. */
  changed(): void;
}

/**
 * The download of the whole catalogue: asked for once, when a screen first needs every product
 * (again only after a failure). Its first page comes first and is shown until the list is the
 * catalogue; then the list is taken into the slots.
 */
export class CatalogueDownload {
  private status: ListStatus = "idle";
  private error: ApiError | null = null;
  /** While the list loads: its first page, newest first (the products themselves are set aside in the slots). */
  private firstPage: readonly Product[] | null = null;
  private wanted = false;

  constructor(
    private readonly api: Pick<ProductStoreApi, "list" | "first">,
    private readonly userId: number | undefined,
    private readonly slots: ProductSlots,
    private readonly hooks: CatalogueDownloadHooks,
  ) {}

  getStatus = (): ListStatus => this.status;
  getError = (): ApiError | null => this.error;
  getFirstPage = (): readonly Product[] | null => this.firstPage;

  /** A screen needs the whole catalogue (from now on, unknown products from live events join it). */
  want(): void {
    this.wanted = true;
  }

  isWanted(): boolean {
    return this.wanted;
  }

  /** Not loaded or loading: a load may start. */
  canStart(): boolean {
    return this.status === "idle" || this.status === "error";
  }

  /** Downloads the list into the slots; answers whether it is the catalogue now. */
  async load(): Promise<boolean> {
    this.status = "loading";
    this.error = null;
    this.hooks.changed();
    // Both asked for at once, the small first page first.
    const first = this.api.first?.();
    const whole = this.api.list(this.userId);
    if (first) void this.takeFirstPage(first);
    try {
      const { products, revision } = await whole;
      await this.slots.takeList(products);
      this.hooks.loaded(revision);
      this.status = "loaded";
    } catch (err) {
      this.status = "error";
      this.error = normaliseError(err);
    } finally {
      this.firstPage = null;
    }
    this.hooks.changed();
    return this.status === "loaded";
  }

  /**
   * The first page, shown until the list is the catalogue (once it is, or after a failure, a page
   * that comes is dropped). Its products are set aside in the slots: live changes reach them, and
   * the list load places them (the newer copy of each wins).
   */
  private async takeFirstPage(first: Promise<Product[]>): Promise<void> {
    let products: Product[];
    try {
      products = await first;
    } catch {
      return; // the whole list still comes
    }
    // Also while the list is being taken in (100,000 products take a while to index); not after.
    if (this.status !== "loading") return;
    for (const p of products) this.slots.accept(p, "set-aside");
    this.firstPage = products;
    this.hooks.changed();
  }
}
