/** Where the shop's name would be configured; the app has no such setting, so its own name. */
export const SHOP_NAME = "Blez Inventory";
