import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type {
  BuyLimit,
  BuySettingsAnswer,
  BuySettingsBody,
  CounterFeedCard,
  CreditAdjustmentBody,
  Customer,
  CustomerBody,
  CustomerDetail,
  CustomerExport,
  ProductFromFeedBody,
  TradeIn,
  TradeInBody,
} from "../../../../contract/counter";
import type { Product } from "../../../../contract/products";
import { apiFetch } from "../../../lib/http";

/** The counter's queries (issue 40): customers, a customer's page, the open drafts. */
export const counterKeys = {
  all: ["counter"] as const,
  customers: (q: string) => ["counter", "customers", q] as const,
  customer: (id: number) => ["counter", "customer", id] as const,
  drafts: ["counter", "drafts"] as const,
  buySettings: ["counter", "buy-settings"] as const,
};

/** GET /api/customers?q=: by name, email or phone. */
export function useCustomers(q: string) {
  return useQuery({
    queryKey: counterKeys.customers(q),
    queryFn: ({ signal }) => apiFetch<Customer[]>(`/api/customers${q ? `?q=${encodeURIComponent(q)}` : ""}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/customers/{id}: the customer, their trade-ins, orders and the credit ledger. */
export function useCustomer(id: number | null) {
  return useQuery({
    queryKey: counterKeys.customer(id ?? 0),
    queryFn: ({ signal }) => apiFetch<CustomerDetail>(`/api/customers/${id}`, { signal }),
    enabled: id !== null,
  });
}

export function useCreateCustomer() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: CustomerBody) => (await apiFetch<{ customer: Customer }>("/api/customers", { method: "POST", body })).customer,
    onSettled: () => client.invalidateQueries({ queryKey: ["counter", "customers"] }),
  });
}

/** POST /api/customers/{id}/credit: a manager's adjustment with a reason. */
export function useAdjustCredit(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: CreditAdjustmentBody) => apiFetch(`/api/customers/${id}/credit`, { method: "POST", body }),
    onSettled: () => client.invalidateQueries({ queryKey: counterKeys.all }),
  });
}

export function useEraseCustomer(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch(`/api/customers/${id}/erase`, { method: "POST" }),
    onSettled: () => client.invalidateQueries({ queryKey: counterKeys.all }),
  });
}

export function exportCustomer(id: number): Promise<CustomerExport> {
  return apiFetch<CustomerExport>(`/api/customers/${id}/export`);
}

/** GET /api/trade-ins?status=draft: the drafts to finish later. */
export function useDrafts() {
  return useQuery({
    queryKey: counterKeys.drafts,
    queryFn: ({ signal }) => apiFetch<TradeIn[]>("/api/trade-ins?status=draft", { signal }),
  });
}

/** POST /api/trade-ins (a new draft) or PUT /api/trade-ins/{id} (the draft saved again): the lines come back with their offers. */
export async function saveTradeIn(id: number | null, body: TradeInBody): Promise<TradeIn> {
  const path = id === null ? "/api/trade-ins" : `/api/trade-ins/${id}`;
  return (await apiFetch<{ trade_in: TradeIn }>(path, { method: id === null ? "POST" : "PUT", body })).trade_in;
}

export async function acceptTradeIn(id: number): Promise<TradeIn> {
  return (await apiFetch<{ trade_in: TradeIn }>(`/api/trade-ins/${id}/accept`, { method: "POST" })).trade_in;
}

/** POST /api/trade-ins/{id}/approve: an online list goes from Pending to Approved (still a draft). */
export async function approveTradeIn(id: number): Promise<TradeIn> {
  return (await apiFetch<{ trade_in: TradeIn }>(`/api/trade-ins/${id}/approve`, { method: "POST" })).trade_in;
}

export async function voidTradeIn(id: number): Promise<TradeIn> {
  return (await apiFetch<{ trade_in: TradeIn }>(`/api/trade-ins/${id}/void`, { method: "POST" })).trade_in;
}

/** GET /api/buy-settings: the percents, overrides, hotlist, darklist and every product's buy limit. */
export function useBuySettings(enabled = true) {
  return useQuery({
    queryKey: counterKeys.buySettings,
    queryFn: ({ signal }) => apiFetch<BuySettingsAnswer>("/api/buy-settings", { signal }),
    enabled,
  });
}

/** PUT /api/buy-settings (managers): the whole settings. */
export function saveBuySettings(body: BuySettingsBody): Promise<BuySettingsAnswer> {
  return apiFetch<BuySettingsAnswer>("/api/buy-settings", { method: "PUT", body });
}

/** PUT /api/buy-settings/limits/{id} (managers): how many of a product the shop wants on hand; null removes the limit. */
export function saveBuyLimit(productId: number, buyLimit: number | null): Promise<BuyLimit> {
  return apiFetch<BuyLimit>(`/api/buy-settings/limits/${productId}`, { method: "PUT", body: { buy_limit: buyLimit } });
}

/** GET /api/counter/feed-cards?q=: printings of the price feeds' latest runs by name (a card the catalogue does not have). */
export function useCounterFeedCards(q: string, enabled: boolean) {
  return useQuery({
    queryKey: ["counter", "feed-cards", q] as const,
    queryFn: ({ signal }) => apiFetch<CounterFeedCard[]>(`/api/counter/feed-cards?q=${encodeURIComponent(q)}`, { signal }),
    enabled,
    retry: false,
  });
}

/** POST /api/counter/products-from-feed: the printing added to the catalogue, with its market ids and the feed's price. */
export function productFromFeed(body: ProductFromFeedBody): Promise<Product> {
  return apiFetch<Product>("/api/counter/products-from-feed", { method: "POST", body });
}

/** POST /api/trade-ins/{id}/reverse (managers): an accepted trade-in reversed by new entries, with a reason. */
export function useReverseTradeIn(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (reason: string) =>
      (await apiFetch<{ trade_in: TradeIn }>(`/api/trade-ins/${id}/reverse`, { method: "POST", body: { reason } })).trade_in,
    onSettled: () => client.invalidateQueries({ queryKey: counterKeys.all }),
  });
}
