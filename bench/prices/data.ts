/** The prices bench's products and feed file (bench/prices/index.ts, phases.ts). */
import { once } from "node:events";
import { createWriteStream, statSync } from "node:fs";
import { sql } from "drizzle-orm";
import type { Database } from "../../src/server/db/client.js";

export const scryfallId = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, "0")}`;

/** Products: odd ones carry their Scryfall id, even ones only their set and number. */
export async function seedPriceProducts(database: Database, cards: number): Promise<void> {
  // One revision for all of them (as an import batch takes one): take_revision() per row would take a lock per row.
  await database.db.execute(sql`
    with r as (select take_revision() as revision)
    insert into products (barcode, product_name, vendor, quantity_on_hand, price, cost, condition, set_name, card_number, revision)
    select 'PRICE' || lpad(g::text, 8, '0'), 'Card ' || g, 'Wizards', 1 + g % 4, 100 + g % 5000, 50 + g % 1000,
      (array['Near Mint','Lightly Played','Moderately Played'])[1 + g % 3], 'Set ' || (g / 300), (g % 300)::text, r.revision
    from generate_series(1, ${cards}) g, r`);
  await database.db.execute(sql`
    insert into product_market (product_id, scryfall_id)
    select id, '00000000-0000-4000-8000-' || lpad(to_hex(substr(barcode, 6)::int), 12, '0') from products
    where barcode like 'PRICE%' and substr(barcode, 6)::int % 2 = 1`);
  await database.db.execute(sql`analyze`);
}

/** A bulk file shaped like Scryfall's default_cards: one JSON array, each card padded like the real ones' text and image fields. */
export async function writeScryfallFeed(path: string, cards: number, fileMb: number): Promise<number> {
  const out = createWriteStream(path);
  const pad = "x".repeat(Math.max(0, Math.floor((fileMb * 1024 * 1024) / cards) - 400));
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, "drain");
  };
  await write("[\n");
  for (let n = 1; n <= cards; n++) {
    const card = {
      object: "card",
      id: scryfallId(n),
      name: `Card ${n}`,
      set: `s${Math.floor(n / 300)}`,
      set_name: `Set ${Math.floor(n / 300)}`,
      collector_number: String(n % 300),
      tcgplayer_id: 100_000 + n,
      oracle_text: pad,
      prices: {
        usd: ((100 + ((n * 37) % 9000)) / 100).toFixed(2),
        usd_foil: null,
        usd_etched: null,
        eur: "1.00",
        eur_foil: null,
        tix: null,
      },
    };
    await write(`${JSON.stringify(card)}${n < cards ? ",\n" : "\n"}`);
  }
  await write("]\n");
  out.end();
  await once(out, "finish");
  return statSync(path).size;
}
