import { Readable } from "node:stream";
import Papa from "papaparse";
import { FINISH_LABELS, FINISHES, type Finish, PRICE_KINDS, type PriceKind } from "../../../../contract/market.js";
import { parseAmount } from "../../../../contract/money.js";
import { CONDITIONS, type Condition } from "../../../../contract/rules.js";
import { type ByteSource, type FeedRecord, idOf, inBatches, type OnProblem, type ParseOptions, textOf } from "./feed-record.js";

type Row = Record<string, string | undefined>;

const ID_COLUMNS = ["tcgplayer_product_id", "scryfall_id", "pokemontcg_id", "barcode"] as const;
const SET_COLUMNS = ["set", "set_name", "set_code"];
const NUMBER_COLUMNS = ["number", "card_number", "collector_number"];
/** `price` is the market price; the kinds' own columns may stand beside it or instead of it. */
const PRICE_COLUMNS: Array<[string, PriceKind]> = [["price", "market"], ...PRICE_KINDS.map((k): [string, PriceKind] => [k, k])];

const key = (text: string) =>
  text
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, " ");
const FINISH_NAMES = new Map<string, Finish>(FINISHES.flatMap((f) => [[key(f), f] as const, [key(FINISH_LABELS[f]), f] as const]));
const CONDITION_NAMES = new Map<string, Condition>([
  ...CONDITIONS.map((c) => [key(c), c] as const),
  ["nm", "Near Mint"],
  ["lp", "Lightly Played"],
  ["mp", "Moderately Played"],
  ["hp", "Heavily Played"],
  ["dmg", "Damaged"],
]);

/**
 * A shop's own CSV, with a header (names are case-insensitive): the card by one id column
 * (`tcgplayer_product_id`, `scryfall_id`, `pokemontcg_id`, `barcode`, or `id:<source>` such as
 * `id:cardmarket`) or by `set` (or `set_name` / `set_code`) and `number`; optional `name`,
 * `finish` (a finish or its label, any case; normal when empty), `condition` (a condition or
 * NM / LP / MP / HP / DMG; none means the price is Near Mint's), `currency` (USD when empty); and
 * `price` (the market price) and/or columns named after the kinds (`market`, `low`, `mid`,
 * `high`, `direct_low`), amounts as spreadsheets write them ("12.50", "$1,234.50").
 *
 * A row that cannot be read is told to onProblem (rows are counted from the header, row 1;
 * blank lines are skipped and not counted) and left out. A file without an id or price column,
 * or with a quote that is never closed, rejects.
 */
export function parseCsv(input: ByteSource, options: ParseOptions = {}): AsyncIterable<FeedRecord[]> {
  return inBatches(csvRecords(input, options.onProblem ?? (() => {})), options.batchSize);
}

async function* csvRecords(input: ByteSource, onProblem: OnProblem): AsyncIterable<FeedRecord> {
  let row = 1;
  let checked = false;
  for await (const step of csvRows(input)) {
    row++;
    if (!checked) {
      checkHeader(step.meta.fields ?? []);
      checked = true;
    }
    const errors = step.errors;
    if (errors.some((e) => e.code === "MissingQuotes")) {
      throw new Error(`The CSV file has a quote that is never closed (row ${row}): the rest of the file cannot be read`);
    }
    if (errors.length > 0) {
      onProblem(row, errors.map((e) => e.message).join("; "));
      continue;
    }
    const result = readRow(step.data);
    if (typeof result === "string") onProblem(row, result);
    else yield result;
  }
}

function checkHeader(fields: string[]): void {
  const has = (names: readonly string[]) => names.some((n) => fields.includes(n));
  const anId = has(ID_COLUMNS) || fields.some((f) => f.startsWith("id:") && f.length > 3);
  if (!anId && !(has(SET_COLUMNS) && has(NUMBER_COLUMNS))) {
    throw new Error(`The CSV file has no column to find cards by: give one of ${ID_COLUMNS.join(", ")} or id:<source>, or set and number`);
  }
  if (!has(PRICE_COLUMNS.map(([column]) => column))) {
    throw new Error(`The CSV file has no price column: give price, or one of ${PRICE_KINDS.join(", ")}`);
  }
}

/** A row as a record, or what is wrong with it. */
function readRow(r: Row): FeedRecord | string {
  const record: Partial<FeedRecord> = {};
  const tcgplayer = textOf(r.tcgplayer_product_id);
  if (tcgplayer !== undefined) {
    record.tcgplayer_product_id = idOf(tcgplayer);
    if (record.tcgplayer_product_id === undefined) return `tcgplayer_product_id ${JSON.stringify(tcgplayer)} is not a product id`;
  }
  for (const column of ["scryfall_id", "pokemontcg_id", "barcode"] as const) {
    const id = textOf(r[column]);
    if (id !== undefined) record[column] = id;
  }
  const external = Object.keys(r).find((k) => k.startsWith("id:") && k.length > 3 && textOf(r[k]));
  if (external) record.external_id = { source: external.slice(3).trim(), id: textOf(r[external]) as string };
  const name = textOf(r.name);
  if (name) record.name = name;
  const setName = textOf(r.set) ?? textOf(r.set_name);
  const setCode = textOf(r.set_code);
  if (setName) record.set_name = setName;
  if (setCode) record.set_code = setCode;
  const number = NUMBER_COLUMNS.map((c) => textOf(r[c])).find((v) => v !== undefined);
  if (number) record.number = number;
  const byId = ID_COLUMNS.some((c) => record[c] !== undefined) || record.external_id !== undefined;
  if (!byId && !((setName || setCode) && number)) return "no id, and no set and number, to find the card by";

  const finishText = textOf(r.finish);
  const finish = finishText === undefined ? "normal" : FINISH_NAMES.get(key(finishText));
  if (!finish) return `unknown finish ${JSON.stringify(finishText)} (use: ${FINISHES.join(", ")})`;
  record.finish = finish;

  const conditionText = textOf(r.condition);
  if (conditionText !== undefined) {
    const condition = CONDITION_NAMES.get(key(conditionText));
    if (!condition) return `unknown condition ${JSON.stringify(conditionText)} (use: ${CONDITIONS.join(", ")}, or NM, LP, MP, HP, DMG)`;
    record.condition = condition;
  }

  const currency = (textOf(r.currency) ?? "USD").toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency)) return `currency ${JSON.stringify(r.currency)} is not an ISO 4217 code (USD, EUR, ...)`;
  record.currency = currency;

  const prices: Partial<Record<PriceKind, number>> = {};
  for (const [column, kind] of PRICE_COLUMNS) {
    const cell = textOf(r[column]);
    if (cell === undefined) continue;
    const cents = parseAmount(cell);
    if (cents === undefined) return `${column} ${JSON.stringify(cell)} is not an amount`;
    // A zero is no price (as in the JSON feeds): nothing to price a card at.
    if (cents === 0) continue;
    if (prices[kind] !== undefined && prices[kind] !== cents) return "price and market differ: give one of them";
    prices[kind] = cents;
  }
  if (Object.keys(prices).length === 0) return "no price";
  record.prices = prices;
  return record as FeedRecord;
}

/**
 * The CSV's records one at a time, parsed by papaparse as the text streams in; papaparse is
 * paused while the records it has read wait to be taken, so a large file is never held. The
 * delimiter is the header's (comma, semicolon, tab or bar), read before papaparse starts: its own
 * guess looks at the first chunk only, which may be a few bytes of a network read.
 */
async function* csvRows(input: ByteSource): AsyncIterable<Papa.ParseStepResult<Row>> {
  const text = utf8Text(input)[Symbol.asyncIterator]();
  let head = "";
  while (!head.includes("\n") && head.length < 64 * 1024) {
    const next = await text.next();
    if (next.done) break;
    head += next.value;
  }
  const source = Readable.from(rest(head, text));
  const queue: Array<Papa.ParseStepResult<Row>> = [];
  let parser: Papa.Parser | undefined;
  let paused = false;
  let done = false;
  let failure: Error | undefined;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  Papa.parse<Row>(source, {
    header: true,
    delimiter: delimiterOf(head.split(/\r?\n/, 1)[0] ?? ""),
    skipEmptyLines: "greedy",
    transformHeader: (h) => h.trim().toLowerCase(),
    step: (result, p) => {
      parser = p;
      queue.push(result);
      if (queue.length >= 200 && !paused) {
        paused = true;
        p.pause();
      }
      notify();
    },
    complete: () => {
      done = true;
      notify();
    },
    error: (err: Error) => {
      failure = err;
      notify();
    },
  });
  try {
    for (;;) {
      const next = queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (failure) throw new Error(`The CSV file could not be read: ${failure.message}`);
      if (done) return;
      if (paused) {
        paused = false;
        parser?.resume();
      } else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    if (!done) {
      parser?.abort();
      source.destroy();
    }
  }
}

async function* rest(head: string, text: AsyncIterator<string>): AsyncIterable<string> {
  if (head) yield head;
  for (;;) {
    const next = await text.next();
    if (next.done) return;
    yield next.value;
  }
}

/** The delimiter a header line uses most, of those spreadsheets write; a comma when it has none. */
function delimiterOf(header: string): string {
  let best = ",";
  let most = 0;
  for (const d of [",", ";", "\t", "|"]) {
    const count = header.split(d).length - 1;
    if (count > most) {
      best = d;
      most = count;
    }
  }
  return best;
}

/** Text from bytes, decoded across chunk boundaries (a character split between two chunks stays whole). */
async function* utf8Text(input: ByteSource): AsyncIterable<string> {
  const decoder = new TextDecoder("utf-8");
  for await (const chunk of input) {
    const text = typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    if (text) yield text;
  }
  const rest = decoder.decode();
  if (rest) yield rest;
}
