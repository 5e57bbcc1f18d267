import type { MouseEvent, ReactNode } from "react";

/** A product's address: its Edit dialog over the inventory. */
export const productAddress = (id: number) => `/inventory/products/${id}`;

/**
 * A link to a product's address. Given `onOpen` (the app's, which opens the dialog over this
 * screen so Back comes here), a plain click opens it in the page; a click with a modifier, or
 * none given, follows the link as any other.
 */
export function ProductLink({ id, onOpen, children }: { id: number; onOpen?: (id: number) => void; children: ReactNode }) {
  const click = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onOpen || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    onOpen(id);
  };
  return (
    <a
      href={productAddress(id)}
      onClick={click}
      className="break-words font-medium text-blue-800 underline-offset-2 hover:underline dark:text-blue-300"
    >
      {children}
    </a>
  );
}
