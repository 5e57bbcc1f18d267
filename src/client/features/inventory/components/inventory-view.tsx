/** Placeholder until the inventory view lands. */
export function InventoryView() {
  return <h1 className="text-2xl font-bold">Inventory Management</h1>;
}
