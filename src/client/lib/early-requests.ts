import type { Product } from "../../contract/products";
import { FIRST_PAGE_PRODUCTS } from "../../contract/rules";

/**
 * The requests the page's head sends for a returning user before the app's code has loaded
 * (early/early-catalogue.ts, built as a script of its own), and their handover to the app: each
 * is taken once, by the call that would have sent it (lib/http.ts `early`, listProducts), and the
 * server decides as for any request. Unclaimed, they are dropped after EARLY_UNCLAIMED_MS.
 */
export const EARLY_PATHS = {
  me: "/api/auth/me",
  permissions: "/api/auth/verify-permissions",
  firstPage: `/api/products?limit=${FIRST_PAGE_PRODUCTS}`,
  catalogue: "/api/products?catch_up=true",
} as const;

export const EARLY_UNCLAIMED_MS = 30_000;

/** The catalogue asked for (and parsed in slices) early, for the user it was asked for; a null list: it failed. */
export interface EarlyCatalogue {
  userId: number;
  list: Promise<{ products: Product[]; revision: string | null } | null>;
}

type EarlyAnswers = Record<string, Promise<Response> | undefined>;
const early = globalThis as { __blezEarlyAnswers?: EarlyAnswers; __blezEarlyCatalogue?: EarlyCatalogue };

/** Early answers by path, until taken or EARLY_UNCLAIMED_MS. */
export function putEarlyAnswers(answers: EarlyAnswers): void {
  early.__blezEarlyAnswers = answers;
  setTimeout(() => {
    if (early.__blezEarlyAnswers === answers) early.__blezEarlyAnswers = undefined;
  }, EARLY_UNCLAIMED_MS);
}

/** The answer to a GET of `path` the page's head sent, taken once (undefined: none). */
export function takeEarlyAnswer(path: string): Promise<Response> | undefined {
  const answers = early.__blezEarlyAnswers;
  const answer = answers?.[path];
  if (answers) answers[path] = undefined;
  return answer;
}

/** The early catalogue, until taken or EARLY_UNCLAIMED_MS. */
export function putEarlyCatalogue(catalogue: EarlyCatalogue): void {
  early.__blezEarlyCatalogue = catalogue;
  setTimeout(() => {
    if (early.__blezEarlyCatalogue === catalogue) early.__blezEarlyCatalogue = undefined;
  }, EARLY_UNCLAIMED_MS);
}

/** The early list, taken once (whoever asks first), and only for the user it was asked for. */
export function takeEarlyCatalogue(userId: number | undefined): EarlyCatalogue["list"] | null {
  const catalogue = early.__blezEarlyCatalogue;
  early.__blezEarlyCatalogue = undefined;
  return catalogue && userId !== undefined && catalogue.userId === userId ? catalogue.list : null;
}
