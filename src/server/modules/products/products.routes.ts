import type { ZodApp } from "../../app.js";

/** Routes of the products module (to be built). */
export async function productsRoutes(_app: ZodApp): Promise<void> {}
