import type { FastifyInstance } from "fastify";

/**
 * Every /api route of the app, read from the app itself: its OpenAPI document (made from the
 * contract's zod schemas), checked against Fastify's own route table so a route left out of the
 * document (hidden) would not be left out of the tests either.
 */

/** An OpenAPI 3.0 schema as the zod type provider writes it (the subset the tests read). */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  pattern?: string;
  format?: string;
  default?: unknown;
}

export interface ApiParameter {
  in: "path" | "query" | "header" | "cookie";
  name: string;
  required?: boolean;
  schema: JsonSchema;
}

export interface ApiRoute {
  method: string;
  /** The OpenAPI path: `/api/products/{id}`. */
  path: string;
  parameters: ApiParameter[];
  /** The application/json request body's schema, if the route takes one. */
  body?: JsonSchema;
  /** Whether the route reads multipart/form-data (photo uploads). */
  multipart: boolean;
}

interface OpenApiOperation {
  parameters?: ApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
  consumes?: string[];
}

export function apiRoutes(app: FastifyInstance): ApiRoute[] {
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, OpenApiOperation>> };
  const routes: ApiRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const content = op.requestBody?.content ?? {};
      routes.push({
        method: method.toUpperCase(),
        path,
        parameters: op.parameters ?? [],
        body: content["application/json"]?.schema,
        multipart: "multipart/form-data" in content || (op.consumes ?? []).includes("multipart/form-data"),
      });
    }
  }
  return routes;
}

/**
 * Fastify's own list of /api routes (method and OpenAPI-style path), from its route tree:
 * `printRoutes` draws one node a line, indented four characters a level, each with its methods.
 */
export function fastifyApiRoutes(app: FastifyInstance): string[] {
  const found: string[] = [];
  const prefixes: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split("\n")) {
    const match = /^((?:[│ ] {3})*)(?:[├└]── )?(.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match?.[2]?.trim()) continue;
    const level = (match[1] ?? "").length / 4;
    prefixes.length = level;
    const path = (prefixes[level - 1] ?? "") + match[2];
    prefixes[level] = path;
    for (const method of (match[3] ?? "").split(", ")) {
      if (!method || method === "HEAD") continue;
      found.push(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
    }
  }
  return found.filter((r) => / \/api\//.test(r) && !/ \/api\/docs/.test(r)).sort();
}

/** A route's URL with its path parameters filled in (each already URL-safe as given). */
export function urlOf(route: ApiRoute, params: Record<string, string>, query = ""): string {
  const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? "1");
  return query ? `${path}?${query}` : path;
}

/** Whether Fastify reads a body for this method (it never does for GET and HEAD). */
export const readsBody = (method: string) => method !== "GET" && method !== "HEAD";

/** JSON text of arrays or objects nested `depth` levels deep, written out as text (never built as a value). */
export function deepJson(depth: number, kind: "array" | "object" | "constructor" = "array"): string {
  if (kind === "array") return `${"[".repeat(depth)}${"]".repeat(depth)}`;
  const key = kind === "object" ? "a" : "constructor";
  return `${`{"${key}":`.repeat(depth - 1)}{}${"}".repeat(depth - 1)}`;
}
