import { JSONParser, TokenType } from "@streamparser/json";
import type { ByteSource } from "./feed-record.js";

/**
 * The elements of a JSON file's list, one at a time as the bytes stream in: the top-level array
 * (`[...]`, a bulk file), or the array under `key` of a top-level object (`{"results": [...]}`,
 * `{"data": [...]}`, an API answer); the file's first character tells which. Only the element
 * being read is held (`keepStack: false` drops each one once it is emitted).
 *
 * Rejects, saying what and where, when the file is not JSON, is cut short, is an object without
 * that list, or is an answer that says it failed (`"success": false`, as TCGCSV answers an error).
 */
export async function* jsonElements(input: ByteSource, key: string): AsyncIterable<unknown> {
  let parser: JSONParser | undefined;
  const shape = new ObjectShape(key);
  let topLevel: "array" | "object" | undefined;
  const ready: unknown[] = [];
  let failure: Error | undefined;
  let elements = 0;
  let bytes = 0;
  const where = () => `after ${elements} element${elements === 1 ? "" : "s"}, by byte ${bytes}`;

  for await (const chunk of input) {
    const size = typeof chunk === "string" ? Buffer.byteLength(chunk) : chunk.byteLength;
    if (!parser) {
      const first = firstCharacter(chunk);
      if (first === undefined) {
        bytes += size;
        continue;
      }
      if (first !== "[" && first !== "{") {
        throw new Error(`The file is not JSON: it starts with ${JSON.stringify(preview(chunk))}`);
      }
      topLevel = first === "[" ? "array" : "object";
      parser = new JSONParser({ paths: [topLevel === "array" ? "$.*" : `$.${key}.*`], keepStack: false, stringBufferSize: 64 * 1024 });
      parser.onValue = ({ value }) => {
        ready.push(value);
      };
      parser.onError = (err) => {
        failure ??= err;
      };
      // The object's own keys are followed token by token (an answer is small); a bulk array is not.
      if (topLevel === "object") parser.onToken = (token) => shape.see(token.token, token.value);
    }
    parser.write(chunk);
    bytes += size;
    for (const value of ready) {
      elements++;
      yield value;
    }
    ready.length = 0;
    if (failure) throw new Error(`The file is not valid JSON (${where()}): ${failure.message}`);
  }
  if (!parser) throw new Error("The file is empty");
  if (!parser.isEnded) {
    try {
      parser.end();
    } catch (err) {
      failure ??= err as Error;
    }
  }
  if (failure) throw new Error(`The file ends before its JSON does (${where()}): is it cut short?`);
  for (const value of ready) {
    elements++;
    yield value;
  }
  ready.length = 0;
  if (topLevel === "object") shape.check();
}

/** What an object file says at its top level: whether it has the list, and whether it says it failed. */
class ObjectShape {
  private depth = 0;
  private expectKey = false;
  private currentKey: string | undefined;
  private found = false;
  private failed = false;
  private readonly errors: string[] = [];

  constructor(private readonly key: string) {}

  see(token: TokenType, value: unknown): void {
    switch (token) {
      case TokenType.LEFT_BRACE:
      case TokenType.LEFT_BRACKET:
        if (this.depth === 1 && token === TokenType.LEFT_BRACKET && this.currentKey === this.key) this.found = true;
        this.depth++;
        if (this.depth === 1) this.expectKey = true;
        break;
      case TokenType.RIGHT_BRACE:
      case TokenType.RIGHT_BRACKET:
        this.depth--;
        break;
      case TokenType.COMMA:
        if (this.depth === 1) this.expectKey = true;
        break;
      case TokenType.STRING:
        if (this.depth === 1 && this.expectKey) {
          this.currentKey = value as string;
          this.expectKey = false;
        } else if (this.depth === 2 && this.currentKey === "errors" && this.errors.length < 5) this.errors.push(value as string);
        break;
      case TokenType.FALSE:
        if (this.depth === 1 && this.currentKey === "success") this.failed = true;
        break;
    }
  }

  check(): void {
    if (this.failed) {
      throw new Error(`The source answered that it failed${this.errors.length ? `: ${this.errors.join("; ")}` : ""}`);
    }
    if (!this.found) throw new Error(`The file is a JSON object without a "${this.key}" list: not a feed of this format`);
  }
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const BOM = [0xef, 0xbb, 0xbf];

/** The first character of a chunk that is not whitespace or a byte order mark; undefined when there is none. */
function firstCharacter(chunk: Uint8Array | string): string | undefined {
  if (typeof chunk === "string") return chunk.replace(/^[\s\uFEFF]+/u, "")[0];
  let i = 0;
  if (BOM.every((b, j) => chunk[j] === b)) i = BOM.length;
  while (i < chunk.length && WHITESPACE.has(chunk[i] as number)) i++;
  return i < chunk.length ? String.fromCharCode(chunk[i] as number) : undefined;
}

function preview(chunk: Uint8Array | string): string {
  const text = typeof chunk === "string" ? chunk : Buffer.from(chunk.subarray(0, 80)).toString("utf8");
  return text.replace(/^[\s\uFEFF]+/u, "").slice(0, 20);
}
