import { type APIRequestContext, expect, type Locator, type Page, test } from "@playwright/test";
import sharp from "sharp";
import type { Photo } from "../src/contract/photos";
import type { Product } from "../src/contract/products";
import { adminApi, createProduct, createUser, signIn, uniqueName } from "./support/api";
import { expectNoAxeViolations, letLiveToastsPassClicks, preferCardView, preferTableView, productCard, productRow } from "./support/page";

/** Product photos in the browser: pictures made here with sharp, sent through the real file chooser and the real server. */

let api: APIRequestContext;
test.beforeAll(async () => {
  api = await adminApi();
});
test.afterAll(async () => {
  await api.dispose();
});

/** A plain picture of one colour (a different colour is a different picture). */
const picture = (colour: string, width = 400, height = 300) =>
  sharp({ create: { width, height, channels: 3, background: colour } })
    .png()
    .toBuffer();

/** Adds a photo through the API (as the admin). */
async function addPhotoByApi(productId: number, buffer: Buffer, name = "photo.png"): Promise<{ photo: Photo; product: Product }> {
  const res = await api.post(`/api/products/${productId}/photos`, { multipart: { file: { name, mimeType: "image/png", buffer } } });
  if (![200, 201].includes(res.status())) throw new Error(`add photo failed: ${res.status()} ${await res.text()}`);
  return res.json();
}

async function serverProduct(barcode: string): Promise<Product> {
  return (await api.get(`/api/products/barcode/${barcode}`)).json();
}

const search = (page: Page) => page.getByRole("searchbox", { name: "Search products" });

async function openInventory(page: Page, role: "manager" | "inventory" | "streamer", view: "cards" | "table") {
  const user = await createUser(api, role);
  await (view === "cards" ? preferCardView(page) : preferTableView(page));
  await signIn(page, user);
  await letLiveToastsPassClicks(page);
  await expect(page.getByRole("heading", { name: "Inventory Management" })).toBeVisible();
  await expect(page.getByText("Loading products...")).toHaveCount(0, { timeout: 60_000 });
  return user;
}

/** The src of the picture in a box, once it has loaded (a real answer from the server, with the session's cookie). */
async function loadedSrc(image: Locator): Promise<string> {
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
  return new URL((await image.getAttribute("src")) ?? "", "http://x").pathname;
}

test("two photos through the file chooser, reordered: the cover shows on the card, the table and the streamer's current product", async ({
  page,
  browser,
}) => {
  const product = await createProduct(api, { product_name: uniqueName("Photo Card") });
  await openInventory(page, "inventory", "cards");
  await search(page).fill(product.barcode);
  const card = productCard(page, product);
  await expect(card).toBeVisible();

  // No photo yet: the card's empty box opens the photos to add some.
  await card.getByRole("button", { name: `Add photos of ${product.product_name}` }).click();
  const viewer = page.getByRole("dialog", { name: `Photos of ${product.product_name}` });
  await expect(viewer).toBeVisible();
  const chooser = page.waitForEvent("filechooser");
  await viewer.getByRole("button", { name: `Choose photos of ${product.product_name}` }).click();
  const files = await chooser;
  expect(files.isMultiple()).toBe(true);
  await files.setFiles([
    { name: "front.png", mimeType: "image/png", buffer: await picture("#cc2200") },
    { name: "back.png", mimeType: "image/png", buffer: await picture("#0044cc", 300, 400) },
  ]);
  await expect(viewer.getByTestId("photo-item")).toHaveCount(2);
  const added = (await serverProduct(product.barcode)).photos;
  expect(added).toHaveLength(2);
  expect(added.map((p) => [p.width, p.height])).toEqual([
    [400, 300],
    [300, 400],
  ]);
  await expect(viewer.getByTestId("photo-item").first()).toHaveAttribute("data-photo-id", String(added[0]?.id));

  // The back becomes the cover.
  await viewer.getByRole("button", { name: "Move photo 2 earlier" }).click();
  await expect(viewer.getByTestId("photo-item").first()).toHaveAttribute("data-photo-id", String(added[1]?.id));
  await expect.poll(async () => (await serverProduct(product.barcode)).photos.map((p) => p.id)).toEqual([added[1]?.id, added[0]?.id]);
  const cover = added[1] as Photo;
  // The viewer shows the first photo: now the new cover.
  await expect(viewer.getByTestId("photo-large")).toHaveAttribute("src", cover.url);
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);

  // The card shows the cover's thumbnail in its fixed box.
  const cardImage = card.getByTestId("photo-thumb").locator("img");
  expect(await loadedSrc(cardImage)).toBe(cover.thumbnail_url);
  await expect(cardImage).toHaveAttribute("loading", "lazy");
  await expect(cardImage).toHaveAttribute("width", "64");
  await expect(cardImage).toHaveAttribute("height", "64");

  // The table's row, after switching the view.
  await page.getByRole("button", { name: "Table", exact: true }).click();
  const row = productRow(page, product);
  await expect(row).toBeVisible();
  expect(await loadedSrc(row.getByTestId("photo-thumb").locator("img"))).toBe(cover.thumbnail_url);

  // The streamer's current product: the cover large (the full photo).
  const streamerContext = await browser.newContext();
  const streamerPage = await streamerContext.newPage();
  try {
    await signIn(streamerPage, await createUser(api, "streamer"));
    await expect(streamerPage.getByRole("heading", { name: "Streamer Interface" })).toBeVisible();
    await streamerPage.getByRole("button", { name: "Scan Barcode" }).click();
    await streamerPage.getByLabel("Enter barcode manually").fill(product.barcode);
    await streamerPage.getByRole("button", { name: "Look Up Product" }).click();
    const current = streamerPage.getByTestId("current-product");
    await expect(current.getByTestId("current-product-name")).toHaveText(product.product_name);
    const big = current.getByTestId("current-photo").locator("img");
    expect(await loadedSrc(big)).toBe(cover.url);
    expect(await big.evaluate((img) => img.getBoundingClientRect().width)).toBeGreaterThanOrEqual(200);
  } finally {
    await streamerContext.close();
  }
});

test("the viewer opens with the keyboard, pages with the arrow keys and closes with Escape; axe finds nothing", async ({ page }) => {
  const product = await createProduct(api, { product_name: uniqueName("Viewer Card") });
  const first = await addPhotoByApi(product.id, await picture("#118833"));
  const second = await addPhotoByApi(product.id, await picture("#881133", 500, 250));
  await openInventory(page, "inventory", "table");
  await search(page).fill(product.barcode);
  const row = productRow(page, product);
  await expect(row).toBeVisible();
  await loadedSrc(row.getByTestId("photo-thumb").locator("img"));
  await expectNoAxeViolations(page);

  const open = row.getByRole("button", { name: `View 2 photos of ${product.product_name}` });
  await open.focus();
  await page.keyboard.press("Enter");
  const viewer = page.getByRole("dialog", { name: `Photos of ${product.product_name}` });
  await expect(viewer).toBeVisible();
  const large = viewer.getByTestId("photo-large");
  await expect(large).toHaveAttribute("src", first.photo.url);
  await expect(large).toHaveAttribute("width", String(first.photo.width));
  await loadedSrc(large);
  await expect(viewer.getByTestId("photo-item")).toHaveCount(2);
  await page.keyboard.press("ArrowRight");
  await expect(large).toHaveAttribute("src", second.photo.url);
  await expect(viewer).toContainText("2 of 2");
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
  await expect(open).toBeFocused();
});

test("photos picked in the Add dialog are sent once the product is added; the edit dialog removes one; the audit shows both, the removed one as a placeholder", async ({
  page,
  browser,
}) => {
  await openInventory(page, "manager", "cards");
  const name = uniqueName("New Photo Card");
  const barcode = `PH-${Date.now()}`;
  await page.getByRole("button", { name: "Add Product Manually" }).click();
  const add = page.getByRole("dialog", { name: "Add New Product" });
  await add.getByLabel(/^Barcode/).fill(barcode);
  await add.getByLabel(/^Product Name/).fill(name);
  await add.getByLabel(/^Vendor/).fill("Topps");
  const chooser = page.waitForEvent("filechooser");
  await add.getByRole("button", { name: `Choose photos of ${name}` }).click();
  await (await chooser).setFiles([
    { name: "one.png", mimeType: "image/png", buffer: await picture("#445566") },
    { name: "two.png", mimeType: "image/png", buffer: await picture("#665544") },
  ]);
  await expect(add.getByTestId("pending-photo")).toHaveCount(2);
  await add.getByRole("button", { name: "Move two.png earlier" }).click();
  await expect(add.getByRole("img").first()).toHaveAttribute("alt", "two.png (cover)");
  await expectNoAxeViolations(page);
  await add.getByRole("button", { name: "Add Product" }).click();
  await expect(add).toHaveCount(0, { timeout: 60_000 });
  const created = await serverProduct(barcode);
  expect(created.photos).toHaveLength(2);
  expect(created.photos[0]?.width).toBe(400);

  await search(page).fill(barcode);
  const card = productCard(page, created);
  await card.getByRole("button", { name: "Edit" }).click();
  const edit = page.getByRole("dialog", { name: "Edit Product" });
  await expect(edit.getByTestId("photo-item")).toHaveCount(2);
  await edit.getByRole("button", { name: "Remove photo 2" }).click();
  await expect(edit.getByTestId("photo-item")).toHaveCount(1);
  // The viewer from the edit dialog. Escape the moment it first shows (its code still loading) on
  // a slow phone, the CPU 20 times slower: before Radix made the viewer the top layer, the Edit
  // dialog took the Escape and closed with the viewer (4 runs of 16). It closes only the viewer.
  const viewer = page.getByRole("dialog", { name: `Photos of ${name}` });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 20 });
  await edit.getByRole("button", { name: `View photo 1 of ${name}` }).click();
  await viewer.waitFor({ state: "attached" });
  await page.keyboard.press("Escape");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 1 });
  await expect(viewer).toHaveCount(0);
  await expect(edit).toBeVisible();
  // Again at full speed: the photo, then Escape.
  await edit.getByRole("button", { name: `View photo 1 of ${name}` }).click();
  await expect(viewer.getByTestId("photo-large")).toHaveAttribute("src", created.photos[0]?.url ?? "");
  await page.keyboard.press("Escape");
  await expect(viewer).toHaveCount(0);
  await expect(edit).toBeVisible();
  await expectNoAxeViolations(page);
  await page.keyboard.press("Escape");
  expect((await serverProduct(barcode)).photos.map((p) => p.id)).toEqual([created.photos[0]?.id]);

  const audit = (await (await api.get(`/api/audit/product/${created.id}`)).json()) as Array<{ changed_fields: string[] }>;
  expect(audit.filter((e) => e.changed_fields.includes("photos"))).toHaveLength(3);

  // The photo taken off was on no other product: its files are deleted. The audit trail still
  // lists it, as a placeholder, never a broken image (seen from another browser: this one keeps
  // the pictures it showed in its cache).
  const removed = created.photos[1] as Photo;
  expect((await api.get(removed.thumbnail_url)).status()).toBe(404);
  const otherContext = await browser.newContext();
  try {
    const other = await otherContext.newPage();
    await openInventory(other, "manager", "cards");
    await search(other).fill(barcode);
    await productCard(other, created)
      .getByRole("button", { name: `Audit trail of ${name}` })
      .click();
    const trail = other.getByRole("dialog", { name: `Audit Trail: ${name}` });
    await expect(trail.getByTestId("audit-photos")).toHaveCount(3);
    // In the list after the second photo came, and in the one before it was taken off.
    await expect(trail.getByTestId("photo-gone")).toHaveCount(2);
    const shown = trail.getByTestId("audit-photos").locator("img");
    await expect(shown).toHaveCount(5); // the kept photo, in every list but the first "before"
    for (const image of await shown.all()) expect(await loadedSrc(image)).toBe(created.photos[0]?.thumbnail_url);
    await expectNoAxeViolations(other);
  } finally {
    await otherContext.close();
  }
});

test("2,000 products with photos: the grid scrolls without layout shift @large", async ({ page }) => {
  test.setTimeout(600_000);
  const tag = uniqueName("photos");
  const products = Array.from({ length: 2_000 }, (_, i) => ({
    barcode: `${tag}-${String(i).padStart(4, "0")}`,
    product_name: `${tag} Card ${i}`,
    vendor: ["Topps", "Panini", "Upper Deck", "Leaf"][i % 4],
    release_year: 2000 + (i % 25),
    quantity_on_hand: 5 + (i % 40),
    is_active: "true",
  }));
  const imported = await api.post("/api/products/import", { data: { products }, timeout: 180_000 });
  expect(imported.status()).toBe(200);
  const all = ((await (await api.get("/api/products", { timeout: 120_000 })).json()) as Product[]).filter((p) => p.barcode.startsWith(tag));
  expect(all).toHaveLength(2_000);
  const pictures = await Promise.all(
    ["#aa2222", "#22aa22", "#2222aa", "#aaaa22", "#22aaaa", "#aa22aa"].map((c, i) => picture(c, 400 + 40 * i, 300)),
  );
  // Four uploads at a time: each product gets one of six pictures (stored once each).
  for (let i = 0; i < all.length; i += 4) {
    await Promise.all(all.slice(i, i + 4).map((p, j) => addPhotoByApi(p.id, pictures[(i + j) % pictures.length] as Buffer)));
  }

  await openInventory(page, "manager", "cards");
  await search(page).fill(tag);
  await expect(page.getByTestId("results-summary")).toContainText("2,000", { timeout: 60_000 });
  await expect(page.getByTestId("product-card").first().getByTestId("photo-thumb").locator("img")).toBeVisible();
  expect(await page.evaluate(() => PerformanceObserver.supportedEntryTypes.includes("layout-shift"))).toBe(true);
  await page.evaluate(() => {
    const w = window as unknown as { __shift: number };
    w.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) {
        if (!entry.hadRecentInput) w.__shift += entry.value;
      }
    }).observe({ type: "layout-shift", buffered: false });
  });
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < Math.min(height, 60_000); y += 600) {
    await page.mouse.wheel(0, 600);
    await page.waitForTimeout(50);
  }
  await page.waitForTimeout(1_000);
  const shown = await page.getByTestId("product-card").getByTestId("photo-thumb").locator("img").count();
  expect(shown).toBeGreaterThan(0);
  const score = await page.evaluate(() => (window as unknown as { __shift: number }).__shift);
  console.log(`2,000 products with photos, grid scrolled ${Math.min(height, 60_000)} px: layout-shift score ${score.toFixed(4)}`);
  expect(score).toBeLessThan(0.01);
});
