/** Query keys of the prices feature: everything under ["prices"]. */
export const priceKeys = {
  all: ["prices"] as const,
  feeds: ["prices", "feeds"] as const,
  /** Every page of every proposals list (all, or big moves only). */
  proposals: ["prices", "proposals"] as const,
  proposalsList: (big: boolean) => ["prices", "proposals", { big }] as const,
  rules: ["prices", "rules"] as const,
  /** One product's market ids and prices. */
  market: (productId: number) => ["prices", "market", productId] as const,
};
