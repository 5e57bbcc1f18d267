import { randomBytes } from "node:crypto";
import { type APIRequestContext, type Page, request } from "@playwright/test";
import type { Role } from "../../src/contract/permissions";
import type { Product } from "../../src/contract/products";
import type { User } from "../../src/contract/users";
import { E2E_ADMIN, E2E_BASE_URL } from "./env";

export interface TestUser extends User {
  password: string;
}

/** An API client signed in as the run's super_admin. Dispose it in afterAll/afterEach. */
export async function adminApi(): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  await signInRequest(api, E2E_ADMIN.username, E2E_ADMIN.password);
  return api;
}

/** An API client signed in as `user` (e.g. another user making changes). Dispose it after use. */
export async function userApi(user: { username: string; password: string }): Promise<APIRequestContext> {
  const api = await request.newContext({ baseURL: E2E_BASE_URL });
  await signInRequest(api, user.username, user.password);
  return api;
}

async function signInRequest(api: APIRequestContext, username: string, password: string) {
  const res = await api.post("/api/auth/login", { data: { username, password } });
  if (!res.ok()) throw new Error(`sign-in as ${username} failed: ${res.status()} ${await res.text()}`);
}

export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/** A random valid EAN-13 (12 random digits + check digit), unique per test. */
export function uniqueEan13(): string {
  const digits = Array.from({ length: 12 }, () => Math.floor(Math.random() * 10));
  digits[0] = 2; // 2xx: in-store numbers, never a real product
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 1 : 3), 0);
  return `${digits.join("")}${(10 - (sum % 10)) % 10}`;
}

/** A random valid UPC-A (11 random digits + check digit), number system 2 (in-store), unique per test. */
export function uniqueUpcA(): string {
  const digits = Array.from({ length: 11 }, () => Math.floor(Math.random() * 10));
  digits[0] = 2;
  const sum = digits.reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return `${digits.join("")}${(10 - (sum % 10)) % 10}`;
}

/** Creates a user of `role` through the API (as the admin). */
export async function createUser(
  api: APIRequestContext,
  role: Role,
  opts: { username?: string; password?: string } = {},
): Promise<TestUser> {
  const username = opts.username ?? uniqueName(role.replace("_", ""));
  const password = opts.password ?? `pw-${randomBytes(6).toString("hex")}`;
  const res = await api.post("/api/auth/users", { data: { username, password, role } });
  if (res.status() !== 201) throw new Error(`create user failed: ${res.status()} ${await res.text()}`);
  return { ...((await res.json()) as User), password };
}

/** Creates a product through the API; barcode and name are unique unless given. */
export async function createProduct(
  api: APIRequestContext,
  fields: Partial<Omit<Product, "id" | "version" | "revision" | "created_at" | "updated_at">> = {},
): Promise<Product> {
  const { is_active, ...body } = fields;
  const res = await api.post("/api/products", {
    data: {
      barcode: uniqueEan13(),
      product_name: uniqueName("Card"),
      vendor: "Topps",
      release_year: 2024,
      quantity_on_hand: 10,
      ...body,
    },
  });
  if (res.status() !== 201) throw new Error(`create product failed: ${res.status()} ${await res.text()}`);
  let product = (await res.json()) as Product;
  if (is_active === false) {
    const off = await api.put(`/api/products/${product.id}/status`, { data: { is_active: false } });
    product = (await off.json()) as Product;
  }
  return product;
}

/** Signs `page`'s browser context in as `user` (the cookie is shared with the page) and opens the app. */
export async function signIn(page: Page, user: { username: string; password: string }): Promise<void> {
  const res = await page.request.post("/api/auth/login", { data: { username: user.username, password: user.password } });
  if (!res.ok()) throw new Error(`sign-in as ${user.username} failed: ${res.status()} ${await res.text()}`);
  await page.goto("/");
}
