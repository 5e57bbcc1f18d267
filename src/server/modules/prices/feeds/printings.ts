import type { Finish } from "../../../../contract/market.js";

/**
 * How a source names a card's printing, read as our finish and an edition. TCGplayer prices a
 * first edition apart from the unlimited print run ("1st Edition Holofoil" beside "Unlimited
 * Holofoil", both holofoil), and Yu-Gi-Oh! sets come as "1st Edition", "Unlimited" or "Limited".
 * A product's finish cannot say which edition it is, so each finish takes one printing: the plain
 * (or unlimited) one when the source lists it, priced or not, and a first (then a limited)
 * edition only for a card the source lists in no other way. Otherwise an unlimited card would be
 * priced as its first edition, which is often ten times dearer.
 */
export interface Printing<T> {
  finish: Finish;
  /** 0 plain or unlimited, 1 first edition, 2 limited: the lowest is the printing a finish takes. */
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
 * it, as finish and edition; undefined for a name we do not know.
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
  return finish ? { finish, edition } : undefined;
}
