import { expect, type Page } from "@playwright/test";
import axe from "axe-core";
import type { Product } from "../../src/contract/products";

/** A dialog that is open: while one is, the page under it is inert (and was scanned before it opened). */
const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/** The rules a theme can change: a theme's colours, never the page's structure. */
const COLOUR_RULES = ["color-contrast", "link-in-text-block"];

/**
 * axe finds no violations on what the page shows now (each listed with its elements when it does),
 * once the page is still, toasts aside: other tests running in parallel raise toasts on this page
 * at any moment (a show started, a product disabled), and one caught entering or moving up its
 * stack has a fraction of its contrast. The toasts' own colours are sonner's with the theme's.
 * While a dialog is open only the dialog is scanned. `colours: true` runs only the colour rules:
 * for the second theme of a screen whose structure a first scan has checked (axe's rules are most
 * of a browser test's time). `exclude`: a selector of what is left out besides (other tests' rows).
 *
 * axe-core is run in the page directly, put there once per document: its builder for Playwright
 * evaluates the 1.3 MB script twice on every scan and finishes each scan in a new blank page,
 * which was half of a scan's time. The app has no frames, so one `axe.run` sees everything.
 */
export async function expectNoAxeViolations(page: Page, { colours = false, exclude }: { colours?: boolean; exclude?: string } = {}) {
  await settleAnimations(page);
  if (!(await page.evaluate(() => "axe" in window))) await page.evaluate(axe.source);
  const dialogOpen = (await page.locator(OPEN_DIALOG).count()) > 0;
  const left = ["[data-sonner-toaster]", ...(exclude ? [exclude] : [])];
  // The whole document unless a dialog is open (then page-level rules such as the title's stay out).
  const context = dialogOpen ? { include: [OPEN_DIALOG], exclude: left } : { exclude: left };
  const options = colours ? { runOnly: { type: "rule", values: COLOUR_RULES } } : {};
  const violations = await page.evaluate(
    async ({ context, options }) => {
      const results = await (window as unknown as { axe: typeof axe }).axe.run(context, options as axe.RunOptions);
      return results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    },
    { context, options },
  );
  expect(violations).toEqual([]);
}

/** Waits (up to 1 s: a toast enters in 0.4 s) until no CSS animation or transition is running (spinners, which never end, aside). */
async function settleAnimations(page: Page) {
  await page
    .waitForFunction(
      () =>
        document.getAnimations().every((a) => a.playState !== "running" || a.effect?.getTiming().iterations === Number.POSITIVE_INFINITY),
      undefined,
      { timeout: 1_000 },
    )
    .catch(() => {});
}

/**
 * Other tests running in parallel make live changes, and their toasts stack over the top-right
 * of the page. They stay visible (and are scanned by axe) but let clicks through to what is below.
 */
export async function letLiveToastsPassClicks(page: Page) {
  await page.addStyleTag({ content: 'section[aria-label^="Live updates"] { pointer-events: none !important; }' });
}

/** The inventory grid's card of one product. */
export const productCard = (page: Page, p: Pick<Product, "barcode">) =>
  page.locator(`[data-testid="product-card"][data-barcode="${p.barcode}"]`);

/** The inventory shows cards (the table is the default on wide screens): for tests written against the cards. */
export async function preferCardView(page: Page) {
  await page.addInitScript(() => localStorage.setItem("blez-inventory-view", "grid"));
}

/** The inventory shows the table. */
export async function preferTableView(page: Page) {
  await page.addInitScript(() => localStorage.setItem("blez-inventory-view", "table"));
}

/** The inventory table's row of one product. */
export const productRow = (page: Page, p: Pick<Product, "barcode">) =>
  page.locator(`[data-testid="product-row"][data-barcode="${p.barcode}"]`);
