import fc from "fast-check";
import type { ApiParameter, ApiRoute, JsonSchema } from "./routes.test-support.js";
import { deepJson } from "./routes.test-support.js";

/**
 * fast-check arbitraries of requests to a route, made from the route's contract (its OpenAPI
 * schemas, which the zod type provider writes from the contract's zod schemas): values of the
 * right shape, then the same with one place made wrong (a wrong type, a field left out, an extra
 * field, a huge string, a number out of range), deep and wide values, text that is not JSON,
 * and mutated path parameters and query strings.
 *
 * Bodies are generated as values holding small markers (`@@deep-array:4000@@`) that become the
 * deep or wide text only when the body is written out: the counterexample fast-check prints stays
 * readable, and nothing recursive (JSON.stringify) ever runs on a value thousands of levels deep.
 */

const SPECIAL = /"@@(deep-array|deep-object|deep-constructor|wide-object|long-array|huge-string):(\d+)@@"/g;

function specialText(kind: string, n: number): string {
  switch (kind) {
    case "deep-array":
      return deepJson(n);
    case "deep-object":
      return deepJson(n, "object");
    case "deep-constructor":
      return deepJson(n, "constructor");
    case "wide-object":
      return `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(",")}}`;
    case "long-array":
      return `[${Array.from({ length: n }, () => "0").join(",")}]`;
    default:
      return JSON.stringify("x".repeat(n));
  }
}

/** Text sent as it is (not JSON, or nothing at all). */
export class RawBody {
  constructor(readonly text: string) {}
}

/** A generated body as the text sent. */
export function bodyText(value: unknown): string {
  if (value instanceof RawBody) return value.text;
  return (JSON.stringify(value) ?? "null").replace(SPECIAL, (_, kind: string, n: string) => specialText(kind, Number(n)));
}

/** Deep (33 to 5,000 levels), wide (thousands of keys, long arrays) and huge values, as markers. */
export const specialValue: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 33, max: 5_000 }).map((n) => `@@deep-array:${n}@@`),
  fc.integer({ min: 33, max: 5_000 }).map((n) => `@@deep-object:${n}@@`),
  fc.integer({ min: 33, max: 5_000 }).map((n) => `@@deep-constructor:${n}@@`),
  fc.integer({ min: 100, max: 10_000 }).map((n) => `@@wide-object:${n}@@`),
  fc.integer({ min: 100, max: 40_000 }).map((n) => `@@long-array:${n}@@`),
  fc.integer({ min: 1_000, max: 80_000 }).map((n) => `@@huge-string:${n}@@`),
);

const nastyNumber = fc.constantFrom(
  -1,
  0,
  0.5,
  -0.000001,
  1e-320,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  -(2 ** 53) - 2,
  1e21,
  1e308,
  -1e308,
);

const nastyString = fc.oneof(
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\ud800",
    "\u202e",
    "NaN",
    "-1",
    "1e999",
    "0x10",
    "2024-02-30",
    "9999-12-31",
    "0000-00-00",
    "2024-01-01T00:00:00Z",
    "../../etc/passwd",
    "' OR 1=1 --",
    "%s%n",
    "__proto__",
    "constructor",
    "*",
    "http://169.254.169.254/latest/meta-data/",
    "javascript:alert(1)",
  ),
);

/** Any small JSON value: what goes where another type belongs. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 20 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.integer(), { maxKeys: 3 }),
);

/** What a mutation puts in place of a value. */
const replacement: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: anyValue },
  { weight: 2, arbitrary: nastyNumber },
  { weight: 2, arbitrary: nastyString },
  { weight: 2, arbitrary: specialValue },
);

const INT_MIN = -(2 ** 31);
const INT_MAX = 2 ** 31;

function bounds(schema: JsonSchema, fallbackMin: number, fallbackMax: number, step: number): [number, number] {
  let min = typeof schema.minimum === "number" ? schema.minimum : fallbackMin;
  let max = typeof schema.maximum === "number" ? schema.maximum : fallbackMax;
  if (schema.exclusiveMinimum === true) min += step;
  if (typeof schema.exclusiveMinimum === "number") min = schema.exclusiveMinimum + step;
  if (schema.exclusiveMaximum === true) max -= step;
  if (typeof schema.exclusiveMaximum === "number") max = schema.exclusiveMaximum - step;
  return [Math.max(min, fallbackMin), Math.min(max, fallbackMax)];
}

/** A value of the schema's shape (often valid; patterns and cross-field rules are not followed). */
export function shapedValue(schema: JsonSchema | undefined, level = 0): fc.Arbitrary<unknown> {
  if (!schema || level > 6) return anyValue;
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants?.length) return fc.oneof(...variants.map((s) => shapedValue(s, level + 1)));
  if (schema.allOf?.[0]) return shapedValue(schema.allOf[0], level + 1);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ("const" in schema) return fc.constant(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (schema.nullable && !types.includes("null")) types.push("null");
  if (types.length > 1) return fc.oneof(...types.map((type) => shapedValue({ ...schema, type, nullable: false }, level)));
  switch (types[0]) {
    case "string": {
      if (schema.pattern?.includes("\\d{4}-\\d{2}-\\d{2}"))
        return fc
          .date({ min: new Date("2000-01-01"), max: new Date("2030-12-31"), noInvalidDate: true })
          .map((d) => d.toISOString().slice(0, 10));
      const minLength = schema.minLength ?? 0;
      const text = fc.string({ minLength, maxLength: Math.max(minLength, Math.min(schema.maxLength ?? 30, 30)) });
      // The contract's "no control characters" rule: mostly followed, so more requests get past validation.
      if (schema.pattern === "^[^\\p{Cc}]*$")
        return fc.oneof({ weight: 3, arbitrary: text.map((t) => t.replace(/\p{Cc}/gu, "x")) }, { weight: 1, arbitrary: text });
      return text;
    }
    case "integer": {
      const [min, max] = bounds(schema, INT_MIN, INT_MAX, 1);
      if (min > max) return fc.constant(min);
      // Small values most of the time: ids and counts that exist.
      return fc.oneof(
        { weight: 3, arbitrary: fc.integer({ min: Math.max(min, Math.min(0, max)), max: Math.min(max, Math.max(min, 0) + 20) }) },
        fc.integer({ min, max }),
      );
    }
    case "number": {
      const [min, max] = bounds(schema, -1e9, 1e9, 1e-6);
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case "boolean":
      return fc.boolean();
    case "null":
      return fc.constant(null);
    case "array": {
      const minLength = schema.minItems ?? 0;
      return fc.array(shapedValue(schema.items, level + 1), {
        minLength,
        maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case "object": {
      const properties = schema.properties ?? {};
      const model = Object.fromEntries(Object.entries(properties).map(([key, s]) => [key, shapedValue(s, level + 1)]));
      const requiredKeys = (schema.required ?? []).filter((key) => key in properties);
      return fc.record(model, { requiredKeys });
    }
    default:
      return anyValue;
  }
}

type Path = Array<string | number>;

/** Every place in a value (the value itself first). */
function places(value: unknown, path: Path = [], out: Path[] = []): Path[] {
  out.push(path);
  if (Array.isArray(value)) {
    for (const [i, v] of value.entries()) places(v, [...path, i], out);
  } else if (typeof value === "object" && value !== null) for (const [k, v] of Object.entries(value)) places(v, [...path, k], out);
  return out;
}

function clone(value: unknown): unknown {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

type Mutation = { op: "replace" | "drop" | "extra"; at: number; key: string; value: unknown };

/** The value with one place made wrong: replaced, left out, or given an extra key. */
function mutate(value: unknown, m: Mutation): unknown {
  if (value instanceof RawBody) return value;
  const all = places(value);
  const path = all[m.at % all.length] ?? [];
  const root = clone(value);
  if (path.length === 0) {
    if (m.op === "extra" && typeof root === "object" && root !== null && !Array.isArray(root)) {
      (root as Record<string, unknown>)[m.key] = m.value;
      return root;
    }
    return m.op === "drop" ? new RawBody("") : m.value;
  }
  let parent = root as Record<string | number, unknown>;
  for (const step of path.slice(0, -1)) parent = parent[step] as Record<string | number, unknown>;
  const last = path[path.length - 1] as string | number;
  if (m.op === "drop") {
    if (Array.isArray(parent)) parent.splice(last as number, 1);
    else delete parent[last];
  } else if (m.op === "extra" && typeof parent[last] === "object" && parent[last] !== null && !Array.isArray(parent[last])) {
    (parent[last] as Record<string, unknown>)[m.key] = m.value;
  } else {
    parent[last] = m.value;
  }
  return root;
}

const extraKey = fc.oneof(
  fc.string({ maxLength: 12 }),
  fc.constantFrom("__proto__", "constructor", "prototype", "id", "role", "is_active", "version"),
);

const mutation: fc.Arbitrary<Mutation> = fc.record({
  op: fc.constantFrom("replace", "replace", "drop", "extra"),
  at: fc.nat(),
  key: extraKey,
  value: replacement,
});

/** Text that is not JSON, or JSON a parser might trip on. */
const notJson = fc.constantFrom(
  "{",
  "[1,",
  '{"a":}',
  "nul",
  "'single'",
  "\ufeff{}",
  "{}{}",
  '{"a":1,"a":2}',
  "[]",
  "0",
  '"text"',
  "NaN",
  "{\u0000}",
);

/** A body for a route: `undefined` for none, a RawBody for text sent as it is, else a value (with markers). */
export function bodyOf(route: ApiRoute): fc.Arbitrary<unknown> {
  const shaped = shapedValue(route.body);
  return fc.oneof(
    { weight: 3, arbitrary: shaped },
    { weight: 5, arbitrary: fc.tuple(shaped, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([v, ms]) => ms.reduce(mutate, v)) },
    { weight: 1, arbitrary: anyValue },
    { weight: 1, arbitrary: specialValue },
    { weight: 1, arbitrary: notJson.map((text) => new RawBody(text)) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

/** A URL component of any text (a lone surrogate, which encodeURIComponent refuses, becomes U+FFFD). */
const encode = (text: string) =>
  encodeURIComponent(text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd"));

/** A path parameter as it goes into the URL: a likely id, a value of its schema, or something wrong. */
function pathValue(parameter: ApiParameter): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
    { weight: 2, arbitrary: shapedValue(parameter.schema).map((v) => encode(String(v))) },
    {
      weight: 2,
      arbitrary: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.constantFrom(
            "0",
            "-1",
            "2147483648",
            "99999999999999999999",
            "1.5",
            "1e3",
            "0x1",
            "%20",
            "abc",
            "null",
            "%00",
            "%2e%2e%2f%2e%2e",
            "%FF",
            "%F0%9F%98%80",
            "..",
            "a.jpg",
            "x.webp",
          ),
        },
        { weight: 2, arbitrary: nastyString.map(encode) },
        // Longer than a path parameter may be (100 characters): 414.
        { weight: 1, arbitrary: fc.integer({ min: 90, max: 2_000 }).map((n) => "9".repeat(n)) },
      ),
    },
  );
}

/** A query value (sent once, or twice as an array), a wrong one, or none. */
function queryValue(parameter: ApiParameter): fc.Arbitrary<string[] | undefined> {
  const one = fc.oneof(
    { weight: 3, arbitrary: shapedValue(parameter.schema).map((v) => encode(String(v))) },
    { weight: 2, arbitrary: nastyString.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom("%", "%zz", "%E0%A4%A", "-0", "1e309", "", "true&false", "9".repeat(400)) },
  );
  return fc.option(fc.array(one, { minLength: 1, maxLength: 2 }), { nil: undefined, freq: 3 });
}

/** An Idempotency-Key or other header value: printable ASCII (what an HTTP client can send). */
const headerValue = fc.oneof(
  fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, "")),
  fc.integer({ min: 200, max: 5_000 }).map((n) => "k".repeat(n)),
);

export type Actor = "super_admin" | "streamer" | "token";

export interface GeneratedRequest {
  actor: Actor;
  url: string;
  headers: Record<string, string>;
  /** The body, when one is sent: a value with markers, or a RawBody (bodyText writes it out). */
  body?: unknown;
}

/** A whole request to a route: who sends it, its URL (path parameters and query), headers and body. */
export function requestOf(route: ApiRoute): fc.Arbitrary<GeneratedRequest> {
  const pathParameters = route.parameters.filter((p) => p.in === "path");
  const queryParameters = route.parameters.filter((p) => p.in === "query");
  const headerParameters = route.parameters.filter((p) => p.in === "header");
  const multipart = route.multipart
    ? fc.option(
        fc.oneof(
          fc.constant({
            type: "multipart/form-data; boundary=x",
            raw: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\n\r\nnot a picture\r\n--x--\r\n',
          }),
          fc.string({ unit: "binary", maxLength: 200 }).map((raw) => ({ type: "multipart/form-data; boundary=x", raw })),
          fc.constant({ type: "multipart/form-data", raw: "no boundary" }),
        ),
        { nil: undefined, freq: 2 },
      )
    : fc.constant(undefined);
  return fc
    .record({
      actor: fc.constantFrom<Actor>("super_admin", "super_admin", "super_admin", "streamer", "token"),
      path: fc.tuple(...pathParameters.map(pathValue)),
      query: fc.tuple(...queryParameters.map(queryValue)),
      extraQuery: fc.option(fc.tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 })), { nil: undefined, freq: 4 }),
      headers: fc.tuple(...headerParameters.map(() => fc.option(headerValue, { nil: undefined }))),
      body: bodyOf(route),
      contentType: fc.constantFrom(
        "application/json",
        "application/json",
        "application/json",
        "application/json; charset=utf-8",
        "text/plain",
        undefined,
      ),
      multipart,
    })
    .map(({ actor, path, query, extraQuery, headers, body, contentType, multipart }) => {
      const params = Object.fromEntries(pathParameters.map((p, i) => [p.name, path[i] ?? "1"]));
      const pairs: string[] = [];
      queryParameters.forEach((p, i) => {
        for (const v of query[i] ?? []) pairs.push(`${p.name}=${v}`);
      });
      if (extraQuery) pairs.push(`${encode(extraQuery[0])}=${encode(extraQuery[1])}`);
      const url = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "1") + (pairs.length ? `?${pairs.join("&")}` : "");
      const sent: Record<string, string> = {};
      headerParameters.forEach((p, i) => {
        const value = headers[i];
        if (value !== undefined) sent[p.name] = value;
      });
      if (route.method === "GET") return { actor, url, headers: sent };
      if (multipart) return { actor, url, headers: { ...sent, "content-type": multipart.type }, body: new RawBody(multipart.raw) };
      if (body === undefined) return { actor, url, headers: sent };
      return { actor, url, headers: { ...sent, ...(contentType ? { "content-type": contentType } : {}) }, body };
    });
}
