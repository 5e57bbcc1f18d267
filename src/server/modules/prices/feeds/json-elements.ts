import { JSONParser } from "@streamparser/json";

/**
 * The elements of a JSON file's array, one at a time as the bytes stream in: the top-level array,
 * or the array under `key` of a top-level object (`{"results": [...]}`, `{"data": [...]}`); which
 * of the two is told by the file's first character. Only the element being read is held. A file
 * that is not such JSON rejects with what is wrong.
 */
export async function* jsonElements(input: AsyncIterable<Uint8Array | string>, key: string): AsyncIterable<unknown> {
  let parser: JSONParser | undefined;
  const ready: unknown[] = [];
  let failure: Error | undefined;
  for await (const chunk of input) {
    if (!parser) {
      const text = typeof chunk === "string" ? chunk : Buffer.from(chunk.subarray(0, 64)).toString("utf8");
      const first = text.trimStart()[0];
      if (first === undefined) continue;
      if (first !== "[" && first !== "{")
        throw new Error(`The file is not JSON: it starts with ${JSON.stringify(text.trimStart().slice(0, 20))}`);
      parser = new JSONParser({ paths: [first === "[" ? "$.*" : `$.${key}.*`], keepStack: false, stringBufferSize: 64 * 1024 });
      parser.onValue = ({ value }) => {
        ready.push(value);
      };
      parser.onError = (err) => {
        failure = err;
      };
    }
    parser.write(chunk);
    if (failure) throw new Error(`The file is not valid JSON: ${failure.message}`);
    while (ready.length > 0) yield ready.shift();
  }
  if (!parser) throw new Error("The file is empty");
  if (!parser.isEnded) {
    try {
      parser.end();
    } catch (err) {
      failure ??= err as Error;
    }
  }
  if (failure) throw new Error(`The file is not valid JSON: ${failure.message}`);
  while (ready.length > 0) yield ready.shift();
}
