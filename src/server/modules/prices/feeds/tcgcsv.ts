import {
  type ByteSource,
  type FeedRecord,
  idOf,
  inBatches,
  type OnProblem,
  objectOf,
  type ParseOptions,
  pricesOf,
  textOf,
} from "./feed-record.js";
import { jsonElements } from "./json-elements.js";
import { onePerFinish, type Printing, readPrinting } from "./printings.js";

/** A TCGCSV group (a set), as `/{categoryId}/groups` lists them: `{groupId, name, abbreviation, ...}`. */
export interface TcgcsvGroup {
  groupId?: number;
  name?: string;
  abbreviation?: string;
}

/**
 * A TCGCSV group's `/{categoryId}/{groupId}/products` and `/prices` answers, and optionally its
 * group: the group itself, or the category's `/{categoryId}/groups` answer to find it in.
 */
export interface TcgcsvInput {
  products: ByteSource;
  prices: ByteSource;
  /** Gives the records their set: `abbreviation` as set_code, `name` as set_name. */
  group?: TcgcsvGroup;
  /**
   * The category's groups, as TCGCSV publishes them (`/{categoryId}/groups`): read after the
   * products, the products' group (their `groupId`) is found in it and is `group`. A group the
   * list does not have fails the feed: its cards would otherwise match by TCGplayer id only.
   */
  groups?: ByteSource;
}

type Prices = FeedRecord["prices"];
interface Product {
  name?: string;
  number?: string;
  groupId?: number;
}

/**
 * TCGplayer's prices as TCGCSV serves them, one group at a time: the products are read first and
 * only their names, numbers and groups kept (a group has at most a few thousand), then the prices
 * stream, one record per product and printing, in USD with every kind TCGplayer gives
 * (marketPrice, lowPrice, midPrice, highPrice, directLowPrice).
 *
 * Printings (`subTypeName`) as finishes: Normal -> normal, Foil -> foil, Holofoil -> holofoil,
 * Reverse Holofoil -> reverse_holofoil; "Unlimited X" is X; "1st Edition X" and "Limited X" are X
 * only for a product with no plain or unlimited X (printings.ts says why). TCGplayer lists a
 * Magic etched foil as a product of its own, named "... (Foil Etched)", priced as Foil: that is
 * etched. Problems are numbered by element within their file ("products: " or "prices: ").
 */
export function parseTcgcsv(input: TcgcsvInput, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  return inBatches(tcgcsvRecords(input, options.onProblem ?? (() => {})), options.batchSize);
}

async function* tcgcsvRecords(input: TcgcsvInput, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let products: Map<number, Product>;
  try {
    products = await readProducts(input.products, onProblem);
  } catch (err) {
    destroyUnread(input.prices);
    if (input.groups) destroyUnread(input.groups);
    throw new Error(`TCGCSV products: ${(err as Error).message}`);
  }
  let group = input.group;
  if (input.groups) {
    try {
      group ??= await groupOfProducts(input.groups, products);
    } catch (err) {
      destroyUnread(input.prices);
      throw err;
    } finally {
      destroyUnread(input.groups);
    }
  }
  const set = setOf(group);
  const recordsOf = (id: number, printings: Array<Printing<Prices | undefined>>): FeedRecord[] => {
    const product = products.get(id);
    const sameGroup = !group?.groupId || !product?.groupId || product.groupId === group.groupId;
    const records: FeedRecord[] = [];
    for (const { finish, value } of onePerFinish(printings)) {
      if (!value) continue;
      records.push({
        tcgplayer_product_id: id,
        name: product?.name,
        ...(sameGroup ? set : {}),
        number: product?.number,
        finish: finish === "foil" && product?.name && /\betched\b/i.test(product.name) ? "etched" : finish,
        currency: "USD",
        prices: value,
      });
    }
    return records;
  };

  // A product's printings come one after another (TCGCSV lists prices product by product); each
  // product's are gathered, then it takes one printing per finish.
  const done = new Set<number>();
  let current: number | undefined;
  let printings: Array<Printing<Prices | undefined>> = [];
  let n = 0;
  try {
    for await (const value of jsonElements(input.prices, "results")) {
      n++;
      const p = objectOf(value);
      const id = idOf(p?.productId);
      if (!p || id === undefined) {
        onProblem(n, "prices: a price without a productId");
        continue;
      }
      const printing = readPrinting(textOf(p.subTypeName) ?? "");
      if (!printing) {
        onProblem(n, `prices: product ${id} has a printing we do not know: ${JSON.stringify(p.subTypeName)}`);
        continue;
      }
      if (id !== current) {
        if (current !== undefined) yield* recordsOf(current, printings);
        if (current !== undefined) done.add(current);
        current = undefined;
        printings = [];
        if (done.has(id)) {
          onProblem(n, `prices: product ${id} comes again after other products' prices: left out`);
          continue;
        }
        current = id;
      }
      const prices = pricesOf({
        market: p.marketPrice,
        low: p.lowPrice,
        mid: p.midPrice,
        high: p.highPrice,
        direct_low: p.directLowPrice,
      });
      printings.push({ ...printing, value: prices });
    }
  } catch (err) {
    throw new Error(`TCGCSV prices: ${(err as Error).message}`);
  }
  if (current !== undefined) yield* recordsOf(current, printings);
}

async function readProducts(input: ByteSource, onProblem: OnProblem): Promise<Map<number, Product>> {
  const products = new Map<number, Product>();
  let n = 0;
  for await (const value of jsonElements(input, "results")) {
    n++;
    const p = objectOf(value);
    const id = idOf(p?.productId);
    if (!p || id === undefined) {
      onProblem(n, "products: a product without a productId");
      continue;
    }
    const extended = Array.isArray(p.extendedData) ? p.extendedData.map(objectOf) : [];
    const number = textOf(extended.find((e) => e?.name === "Number")?.value);
    products.set(id, { name: textOf(p.name), number, groupId: idOf(p.groupId) });
  }
  return products;
}

/** The products' group (the first one's `groupId`) found in the category's groups; none when the products name no group. */
async function groupOfProducts(groups: ByteSource, products: Map<number, Product>): Promise<TcgcsvGroup | undefined> {
  const groupId = [...products.values()].find((p) => p.groupId !== undefined)?.groupId;
  if (groupId === undefined) return undefined;
  let found: TcgcsvGroup | undefined;
  try {
    found = await findTcgcsvGroup(groups, groupId);
  } catch (err) {
    throw new Error(`TCGCSV groups: ${(err as Error).message}`);
  }
  if (!found) throw new Error(`TCGCSV groups: the products' group ${groupId} is not in the groups list`);
  return found;
}

function setOf(group: TcgcsvGroup | undefined): { set_code?: string; set_name?: string } {
  const set: { set_code?: string; set_name?: string } = {};
  const code = textOf(group?.abbreviation);
  const name = textOf(group?.name);
  if (code) set.set_code = code;
  if (name) set.set_name = name;
  return set;
}

/** A stream the parser will not read after all is closed, so its connection or file is let go. */
function destroyUnread(input: ByteSource): void {
  const stream = input as { destroy?: () => void };
  if (typeof stream.destroy === "function") stream.destroy();
}

/** The group `groupId` from a TCGCSV `/{categoryId}/groups` answer, read as it streams; undefined when it is not there. */
export async function findTcgcsvGroup(groups: ByteSource, groupId: number): Promise<TcgcsvGroup | undefined> {
  for await (const value of jsonElements(groups, "results")) {
    const g = objectOf(value);
    if (g && idOf(g.groupId) === groupId) {
      return { groupId, name: textOf(g.name), abbreviation: textOf(g.abbreviation) };
    }
  }
  return undefined;
}
