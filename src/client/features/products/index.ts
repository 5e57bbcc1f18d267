import { lazy } from "react";

export type { ProductList } from "./api/list-products";
export { useSetProductStatus } from "./api/set-product-status";
export { QUANTITY_FAILED } from "./messages";
export { PhotoThumb } from "./photos/photo-thumb";
export { ProductCover, ProductPhotoButton } from "./photos/product-photo-button";
export { productNameOf } from "./product-name";
export type { ListStatus } from "./store/catalogue-download";
export type { CatalogueChange, CatalogueChanges } from "./store/product-slots";
export { ProductStore } from "./store/product-store";
export type { ProductStoreApi } from "./store/product-store-api";
export {
  ProductStoreProvider,
  useCatalogue,
  usePendingDelta,
  usePendingTaps,
  useProduct,
  useProductList,
  useProductStore,
  useProductsByBarcode,
  useWaitingTaps,
} from "./store/product-store-provider";

// The dialogs (and their form library) load when first opened, not with every screen that uses the store.
export const AddProductDialog = lazy(() => import("./components/add-product-dialog").then((m) => ({ default: m.AddProductDialog })));
export const EditProductDialog = lazy(() => import("./components/edit-product-dialog").then((m) => ({ default: m.EditProductDialog })));
export const AdjustStockDialog = lazy(() => import("./components/adjust-stock-dialog").then((m) => ({ default: m.AdjustStockDialog })));
