import type { ZodApp } from "../../app.js";

/** Routes of the import module (to be built). */
export async function importRoutes(_app: ZodApp): Promise<void> {}
