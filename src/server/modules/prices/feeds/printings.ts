import type { Finish } from "../../../../contract/market.js";

/**
 * How a source names a card's printing, read as our finish. TCGplayer prices a first edition apart
 * from the unlimited print run ("1st Edition Holofoil" beside "Unlimited Holofoil"), and Yu-Gi-Oh!
 * sets come as "1st Edition", "Unlimited" or "Limited". A first edition is a finish of its own
 * (first_edition_normal, first_edition_holofoil): a first-edition product takes only its prices,
 * and an unlimited (normal, holofoil) product never does, however the source lists the card: a
 * first edition is often ten times dearer. A limited print run has no finish of its own: it prices
 * the plain finish only for a card the source lists in no plain or unlimited way (priced or not).
 */
export interface Printing<T> {
  finish: Finish;
  /** 0 plain, unlimited or first edition (whose finish is its own), 2 limited: the lowest is the printing a finish takes. */
  edition: number;
  value: T;
}

/** The printing each finish takes (see Printing), in the order the finishes first appear. */
export function onePerFinish<T>(printings: Iterable<Printing<T>>): Array<Printing<T>> {
  const chosen = new Map<Finish, Printing<T>>();
  for (const p of printings) {
    const held = chosen.get(p.finish);
    if (!held || p.edition < held.edition) chosen.set(p.finish, p);
  }
  return [...chosen.values()];
}

const EDITIONS: Array<[RegExp, number]> = [
  [/^unlimited\s*/, 0],
  [/^1st\s*edition\s*/, 1],
  [/^limited\s*/, 2],
];

/** The finishes a first edition is printed in, as the sources name them ("1st Edition" alone is normal). */
const FIRST_EDITION: Partial<Record<Finish, Finish>> = {
  normal: "first_edition_normal",
  holofoil: "first_edition_holofoil",
};

const FINISH_WORDS: Record<string, Finish> = {
  "": "normal",
  normal: "normal",
  foil: "foil",
  holofoil: "holofoil",
  "reverse holofoil": "reverse_holofoil",
  etched: "etched",
  "foil etched": "etched",
  "etched foil": "etched",
};

/**
 * A printing's name as TCGplayer (`subTypeName`) or pokemontcg.io (`1stEditionHolofoil`) writes
 * it, as finish and edition (see Printing); undefined for a name we do not know (a first edition
 * in a finish we have no first-edition finish for among them).
 */
export function readPrinting(name: string): { finish: Finish; edition: number } | undefined {
  let rest = name
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .trim();
  let edition = 0;
  for (const [prefix, rank] of EDITIONS) {
    if (prefix.test(rest)) {
      rest = rest.replace(prefix, "");
      edition = rank;
      break;
    }
  }
  const finish = FINISH_WORDS[rest];
  if (!finish) return undefined;
  if (edition !== 1) return { finish, edition };
  const first = FIRST_EDITION[finish];
  return first ? { finish: first, edition: 0 } : undefined;
}
