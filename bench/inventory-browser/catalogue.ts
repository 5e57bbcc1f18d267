import type { ProductRow } from "../busy-shop/seed.js";

/**
 * A catalogue that reads like a card shop's: players, years, sets and parallels, so that each
 * prefix of the search typed ("chrome 12") matches a different number of products (the bench
 * tells a keystroke's result from its neighbours' by the count shown and the first row).
 */
const PLAYERS = [
  "Shohei Ohtani",
  "Victor Wembanyama",
  "Patrick Mahomes",
  "Caitlin Clark",
  "Connor McDavid",
  "Julio Rodriguez",
  "Christian Pulisic",
  "Chase Claypool",
  "LeBron James",
  "Aaron Judge",
  "Justin Herbert",
  "Luka Doncic",
  "Mike Trout",
  "Bobby Witt Jr.",
  "Jayden Daniels",
  "Anthony Edwards",
  "Elly De La Cruz",
  "Paul Skenes",
  "Chet Holmgren",
  "Ja'Marr Chase",
];
const SETS = [
  "Topps Chrome",
  "Bowman Chrome",
  "Panini Prizm",
  "Donruss Optic",
  "Panini Select",
  "Panini Mosaic",
  "Panini Chronicles",
  "Stadium Club",
  "Topps Heritage",
  "Upper Deck Series 1",
];
const PARALLELS = ["", "", "Refractor", "Silver", "Chromatic Gold", "Blue Wave /150", "Rookie Auto", "Sepia"];
const VENDORS = ["Topps", "Panini", "Upper Deck", "Bowman", "Leaf"];

export function benchCatalogue(count: number): ProductRow[] {
  return Array.from({ length: count }, (_, i) => {
    const player = PLAYERS[i % PLAYERS.length] as string;
    const set = SETS[Math.floor(i / PLAYERS.length) % SETS.length] as string;
    const parallel = PARALLELS[Math.floor(i / 7) % PARALLELS.length] as string;
    const year = 2000 + (i % 26);
    const number = 1 + (Math.floor(i / 3) % 400);
    return {
      barcode: `BI${String(i).padStart(10, "0")}`,
      product_name: `${player} ${year} ${set}${parallel ? ` ${parallel}` : ""} #${number}`,
      vendor: VENDORS[i % VENDORS.length] as string,
      release_year: year,
      quantity_on_hand: 1 + (i % 90),
      is_active: true,
    };
  });
}

/** What a listed product needs for the app's search (features/inventory/filters.ts: every term in one of these fields). */
export interface Listed {
  id: number;
  barcode: string;
  product_name: string;
  vendor: string;
  set_name: string | null;
  card_number: string | null;
  location: string | null;
  is_active: boolean;
}

/** The keys typed: the search, then as many Backspaces. */
export function keystrokes(search: string): Array<{ key: string; query: string }> {
  const out: Array<{ key: string; query: string }> = [];
  for (let i = 1; i <= search.length; i++) out.push({ key: search[i - 1] as string, query: search.slice(0, i) });
  for (let i = search.length - 1; i >= 0; i--) out.push({ key: "Backspace", query: search.slice(0, i) });
  return out;
}

/**
 * What the screen shows once a query's result is on it: "<count shown>|<barcode of the first row>",
 * with the app's default filters (active only) and order (the list's, newest first).
 */
export function expectedState(list: readonly Listed[], query: string): string {
  const terms = query.trim().toLowerCase().split(/\s+/).filter(Boolean);
  let count = 0;
  let first = "";
  for (const p of list) {
    if (p.is_active === false) continue;
    const key = [p.product_name, p.vendor, p.barcode, p.set_name ?? "", p.card_number ?? "", p.location ?? ""].join("\u0000").toLowerCase();
    if (terms.every((t) => key.includes(t))) {
      if (count === 0) first = p.barcode;
      count++;
    }
  }
  return `${count}|${first}`;
}
